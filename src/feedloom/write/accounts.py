"""Accounts and sessions: register, log in, authenticate a bearer token, note activity.

Passwords are hashed with argon2 in a bounded pool (passwords.py). Sign-in is
throttled per client address and per username, sign-up per address (throttle.py);
an unknown username costs the same hash as a wrong password.
Tokens are random and opaque; only their SHA-256 is stored, so a leaked table holds
no usable token, and deleting the row revokes it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from feedloom.domain.errors import InvalidInput, Unauthorized
from feedloom.domain.ids import IdGenerator
from feedloom.ports import (
    AccountStore,
    ActivityLog,
    Clock,
    RecordCache,
    TimelineStore,
    TokenStore,
)
from feedloom.write.passwords import Passwords
from feedloom.write.throttle import Throttle

USERNAME = re.compile(r"^[A-Za-z0-9_]{3,32}$")
ACTIVITY_WRITE_INTERVAL_S = 3600.0
ACTIVITY_MEMORY = 1_000_000


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class OpenedSession:
    token: str
    user_id: int


class AccountService:
    """Sign-up, sign-in and sign-out."""

    def __init__(
        self,
        accounts: AccountStore,
        tokens: TokenStore,
        token_cache: RecordCache,
        passwords: Passwords,
        throttle: Throttle,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._accounts, self._tokens, self._token_cache = accounts, tokens, token_cache
        self._passwords, self._throttle = passwords, throttle
        self._ids, self._clock = ids, clock

    async def register(
        self, username: str, password: str, display_name: str, address: str | None = None
    ) -> int:
        """Sign up; `address` (the client's) is charged, None for an operator's."""
        if not USERNAME.match(username):
            raise InvalidInput("username must be 3-32 letters, digits or underscores")
        if not 8 <= len(password) <= 256:
            raise InvalidInput("password must be 8-256 characters")
        if address is not None:
            await self._throttle.key("sign_up_per_address", address)
        hashed = await self._passwords.hash(password)
        user_id = self._ids.next_id()
        await self._accounts.create_user(
            user_id, username, display_name or username, hashed, self._clock()
        )
        return user_id

    async def open_session(self, username: str, password: str, address: str) -> OpenedSession:
        """Sign in. Both throttles are charged before any hash is computed, so a flood
        costs a lookup in the limiter, not an argon2 hash."""
        await self._throttle.key("sign_in_per_address", address)
        await self._throttle.key("sign_in_per_account", username.lower())
        credentials = await self._accounts.credentials(username)
        known_hash = credentials.password_hash if credentials is not None else None
        if not await self._passwords.verify(known_hash, password) or credentials is None:
            raise Unauthorized("unknown username or wrong password")
        token = secrets.token_urlsafe(32)
        await self._tokens.create_token(token_digest(token), credentials.user_id, self._clock())
        return OpenedSession(token, credentials.user_id)

    async def close_session(self, token: str) -> None:
        digest = token_digest(token)
        await self._tokens.revoke_token(digest)
        await self._token_cache.invalidate([digest])  # the next request is refused


class Authenticator:
    """Bearer token -> user, and the activity that keeps a user's timeline alive."""

    def __init__(
        self,
        tokens: TokenStore,
        cache: RecordCache,
        activity: ActivityLog,
        timelines: TimelineStore,
        clock: Clock,
    ) -> None:
        self._tokens, self._cache = tokens, cache
        self._activity, self._timelines, self._clock = activity, timelines, clock
        # Recently seen users, so activity is written at most once per interval per user.
        self._seen: dict[int, float] = {}

    async def authenticate(self, token: str) -> int:
        user_id = await self._user_for(token_digest(token))
        if user_id is None:
            raise Unauthorized("the bearer token is unknown or was revoked")
        await self.record_activity(user_id)
        return user_id

    async def _user_for(self, digest: str) -> int | None:
        """Cache-aside; only valid tokens are cached, and revocation invalidates."""
        [(cached, generation)] = await self._cache.get_many([digest])
        if cached is not None:
            return int(cached)
        user_id = await self._tokens.user_for_token(digest)
        if user_id is not None:
            await self._cache.put(digest, str(user_id).encode(), generation)
        return user_id

    async def record_activity(self, user_id: int) -> None:
        """Any authenticated request makes a user active: it keeps their timeline from
        expiring. Written at most hourly per user per process, so a busy reader does not
        turn every request into a write."""
        now = time.monotonic()
        if now - self._seen.get(user_id, -ACTIVITY_WRITE_INTERVAL_S) < ACTIVITY_WRITE_INTERVAL_S:
            return
        if len(self._seen) >= ACTIVITY_MEMORY:
            self._seen.clear()
        self._seen[user_id] = now
        await self._activity.mark_active(user_id, self._clock())
        await self._timelines.touch(user_id)
