"""Sessions: a bearer token -> its user, expiring when idle; list and revoke them.

A token expires `idle_expiry` after its last use, and each use renews it (a sliding
expiry). Renewal writes `last_used_at` at most every `renew_every`, so a busy client
costs a write an hour, not one per request; the expiry is thus exact to within that.
The token cache (ports.RecordCache) holds the user and the last use, so a warm request
checks expiry without the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cachetools import TTLCache

from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.ports import ActivityLog, Clock, RecordCache, SessionRecord, TimelineStore, TokenStore
from feedloom.write.accounts import token_digest

ACTIVITY_WRITE_INTERVAL_S = 3600.0
ACTIVITY_MEMORY = 200_000


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    idle_expiry: timedelta
    active_memory: int = ACTIVITY_MEMORY  # users remembered as marked active lately

    @property
    def renew_every(self) -> timedelta:
        return min(timedelta(hours=1), self.idle_expiry / 10)


@dataclass(frozen=True, slots=True)
class CurrentSession:
    user_id: int
    session_id: str
    # An OAuth session's granted scopes (domain/scopes.py); None: a first-party session.
    scopes: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class SessionView:
    session_id: str
    created_at: datetime
    last_used_at: datetime
    expires_at: datetime
    current: bool
    app: str | None = None  # the OAuth app it was opened by, if any


class Authenticator:
    """Bearer token -> session, and the activity that keeps a user's timeline alive."""

    def __init__(
        self,
        tokens: TokenStore,
        cache: RecordCache,
        activity: ActivityLog,
        timelines: TimelineStore,
        clock: Clock,
        policy: SessionPolicy,
    ) -> None:
        self._tokens, self._cache = tokens, cache
        self._activity, self._timelines, self._clock = activity, timelines, clock
        self.policy = policy  # public: tests shorten it
        # Recently seen users, so activity is written at most once per interval per user.
        self._seen: TTLCache[int, bool] = TTLCache(
            maxsize=policy.active_memory, ttl=ACTIVITY_WRITE_INTERVAL_S
        )

    async def authenticate(self, token: str) -> int:
        return (await self.session(token)).user_id

    async def session(self, token: str) -> CurrentSession:
        digest = token_digest(token)
        [(cached, generation)] = await self._cache.get_many([digest])
        found = _decode(cached) if cached is not None else None
        if found is None:
            found = await self._load(digest, generation)
        user_id, last_used, scopes = found
        now = self._clock()
        if now - last_used >= self.policy.idle_expiry:
            await self._tokens.revoke_token(digest)  # the cached record reads expired too
            raise Unauthorized("the session expired: sign in again")
        if now - last_used >= self.policy.renew_every:
            await self._tokens.touch_token(digest, now)
            await self._cache.put(digest, _encode(user_id, now, scopes), generation)
        await self.record_activity(user_id)
        granted = frozenset(scopes.split()) if scopes is not None else None
        return CurrentSession(user_id, digest[:16], granted)

    async def _load(self, digest: str, generation: int) -> tuple[int, datetime, str | None]:
        """Cache-aside; only valid tokens are cached, and revocation invalidates."""
        record = await self._tokens.session_for_token(digest)
        if record is None:
            raise Unauthorized("the bearer token is unknown or was revoked")
        encoded = _encode(record.user_id, record.last_used, record.scopes)
        await self._cache.put(digest, encoded, generation)
        return record.user_id, record.last_used, record.scopes

    async def record_activity(self, user_id: int) -> None:
        """Any authenticated request makes a user active: it keeps their timeline from
        expiring. Written at most hourly per user per process, so a busy reader does not
        turn every request into a write."""
        if user_id in self._seen:
            return
        self._seen[user_id] = True
        await self._activity.mark_active(user_id, self._clock())
        await self._timelines.touch(user_id)


class Sessions:
    """GET /v1/sessions, DELETE /v1/sessions (all but this one), DELETE /v1/sessions/{id}."""

    def __init__(
        self, tokens: TokenStore, cache: RecordCache, clock: Clock, policy: SessionPolicy
    ) -> None:
        self._tokens, self._cache, self._clock, self._policy = tokens, cache, clock, policy

    async def list(self, current: CurrentSession) -> list[SessionView]:
        now, expiry = self._clock(), self._policy.idle_expiry
        return [
            _view(record, expiry, record.session_id == current.session_id)
            for record in await self._tokens.sessions_of(current.user_id)
            if now - record.last_used < expiry
        ]

    async def revoke_others(self, current: CurrentSession, token: str) -> int:
        revoked = await self._tokens.revoke_other_tokens(current.user_id, token_digest(token))
        if revoked:
            await self._cache.invalidate(revoked)
        return len(revoked)

    async def revoke(self, user_id: int, session_id: str) -> None:
        digest = await self._tokens.revoke_session(user_id, session_id.lower())
        if digest is None:
            raise NotFound("no such session")
        await self._cache.invalidate([digest])


def _view(record: SessionRecord, expiry: timedelta, current: bool) -> SessionView:
    last = record.last_used
    return SessionView(
        record.session_id, record.created_at, last, last + expiry, current, record.app_name
    )


# The cached record's shape: "2 <user> <last use> [<scope,scope…>]". The version comes
# first, so a record of an older shape (say, cached before OAuth sessions had scopes) is
# read as a miss, never as a session with every scope.
RECORD_VERSION = "2"


def _encode(user_id: int, last_used: datetime, scopes: str | None) -> bytes:
    parts = [RECORD_VERSION, str(user_id), f"{last_used.timestamp():.3f}"]
    if scopes is not None:
        parts.append(",".join(scopes.split()) or ",")
    return " ".join(parts).encode()


def _decode(cached: bytes) -> tuple[int, datetime, str | None] | None:
    """None for a record this code cannot read (one of another shape)."""
    parts = cached.decode().split(" ")
    if parts[0] != RECORD_VERSION or len(parts) not in (3, 4):
        return None
    scopes = " ".join(filter(None, parts[3].split(","))) if len(parts) == 4 else None
    return int(parts[1]), datetime.fromtimestamp(float(parts[2]), tz=UTC), scopes
