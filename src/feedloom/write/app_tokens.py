"""User tokens an app signs: a JWT -> the user it names, as a bearer on /v1.

The app's backend signs `{iss: app ID, sub: external ID, aud, exp}` with its token
secret (HS256) or its own key pair (EdDSA or RS256, public keys in a JWKS set on the
app, or at a JWKS URL the app serves: write/jwks.py). Verified with PyJWT: the
algorithms pinned per app (never `none`, never an HS token checked against a public
key), `exp` required and at most `max_lifetime` ahead, clock skew bounded by `leeway`.

The warm path reads no SQL: a verified token is remembered in this process until it
expires (a bounded memo), and the app's state and the user link come from the token
cache in ONE round trip per request. Revoking the app invalidates its state there, so
its tokens are refused at once, whichever process serves them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jwt
from cachetools import LRUCache, TTLCache

from feedloom.domain.apps import App, app_key, link_key
from feedloom.domain.errors import Unauthorized
from feedloom.ports import Clock, RecordCache
from feedloom.ports.apps import AppStore
from feedloom.write.app_links import AppLinks, decode
from feedloom.write.app_users import AppUserWrites
from feedloom.write.jwks import RemoteKeySets
from feedloom.write.sessions import Authenticator, CurrentSession

VERIFIED_TTL_S = 300  # a verified token is re-checked at least this often (and at exp)


@dataclass(frozen=True, slots=True)
class TokenRules:
    audience: str
    leeway_s: int
    max_lifetime_s: int
    verified_memory: int  # tokens remembered as verified, per process


@dataclass(frozen=True, slots=True)
class _Verified:
    app_id: int
    subject: str
    name: str | None
    expires: float


class _AppState:
    """What checks an app's tokens, as cached (and decoded once per process)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.revoked: bool = raw["revoked"]
        self.algorithms: list[str] = raw["algorithms"]
        self.secret: str = raw["secret"]
        self.create_users: bool = raw["create_users"]
        self.keys = jwt.PyJWKSet.from_dict(json.loads(raw["jwks"])) if raw["jwks"] else None
        self.jwks_url: str | None = raw.get("jwks_url")

    def key_for(self, header: dict[str, Any], fetched: jwt.PyJWKSet | None) -> Any:
        if header.get("alg") == "HS256":
            return self.secret
        keys = fetched or self.keys
        if keys is None:
            raise Unauthorized("the app has no public keys for this token")
        kid = header.get("kid")
        matching = [k for k in keys.keys if kid is None or k.key_id == kid]
        if not matching:
            raise Unauthorized("no key of the app has this token's kid")
        return matching[0].key


class AppTokens:
    def __init__(
        self,
        apps: AppStore,
        links: AppLinks,
        users: AppUserWrites,
        cache: RecordCache,
        auth: Authenticator,
        clock: Clock,
        rules: TokenRules,
    ) -> None:
        self._apps, self._links, self._users, self._cache = apps, links, users, cache
        self._auth, self._clock, self.rules = auth, clock, rules
        self._verified: TTLCache[str, _Verified] = TTLCache(
            maxsize=max(1, rules.verified_memory), ttl=VERIFIED_TTL_S
        )
        self._states: LRUCache[bytes, _AppState] = LRUCache(maxsize=256)
        # Keys of apps that publish them at a URL (set once the outbound client is open).
        self.remote_keys: RemoteKeySets | None = None

    @staticmethod
    def claims(token: str) -> bool:
        """A JWT (three dot-separated parts); session tokens and API keys have no dot."""
        return token.count(".") == 2

    async def session(self, token: str) -> CurrentSession:
        now = self._clock().timestamp()
        verified = self._verified.get(token)
        app_id = verified.app_id if verified is not None else _issuer(token)
        subject = verified.subject if verified is not None else None
        keys = [app_key(app_id)] + ([link_key(app_id, subject)] if subject else [])
        cached = await self._cache.get_many(keys)
        state = await self._state(app_id, *cached[0])
        if state.revoked:
            raise Unauthorized("the app that signed this token was revoked")
        if verified is None:
            header = _header(token)
            fetched = await self._fetched_keys(state, header)
            verified = self._verify(token, header, app_id, state, fetched, now)
            self._verified[token] = verified
            cached = await self._cache.get_many([link_key(app_id, verified.subject)])
            link = cached[0]
        else:
            link = cached[1]
        if now > verified.expires + self.rules.leeway_s:
            raise Unauthorized("the token expired")
        user_id = await self._user(verified, state, *link)
        await self._auth.record_activity(user_id)
        return CurrentSession(user_id, f"app-{app_id}")

    async def _state(self, app_id: int, cached: bytes | None, generation: int) -> _AppState:
        if cached is None:
            app = await self._apps.app(app_id)
            if app is None:
                raise Unauthorized("the token's issuer is no app of this service")
            cached = _encode(app)
            await self._cache.put(app_key(app_id), cached, generation)
        state = self._states.get(cached)
        if state is None:
            state = self._states[cached] = _AppState(json.loads(cached))
        return state

    async def _fetched_keys(self, state: _AppState, header: dict[str, Any]) -> jwt.PyJWKSet | None:
        """The app's keys from its JWKS URL (a token signed with its key pair only)."""
        if state.jwks_url is None or header.get("alg") not in state.algorithms:
            return None
        if header.get("alg") == "HS256" or self.remote_keys is None:
            return None
        kid = header.get("kid")
        return await self.remote_keys.keys(state.jwks_url, kid if isinstance(kid, str) else None)

    def _verify(
        self,
        token: str,
        header: dict[str, Any],
        app_id: int,
        state: _AppState,
        fetched: jwt.PyJWKSet | None,
        now: float,
    ) -> _Verified:
        rules = self.rules
        try:
            if header.get("alg") not in state.algorithms:
                raise Unauthorized("the token's algorithm is not one this app signs with")
            claims = jwt.decode(
                token,
                state.key_for(header, fetched),
                algorithms=state.algorithms,
                audience=rules.audience,
                issuer=str(app_id),
                leeway=rules.leeway_s,
                options={"require": ["exp", "iss", "sub", "aud"]},
            )
        except jwt.PyJWTError as error:
            raise Unauthorized(f"the token is not valid: {error}") from error
        expires = float(claims["exp"])
        if expires - now > rules.max_lifetime_s + rules.leeway_s:
            raise Unauthorized(f"the token lives longer than {rules.max_lifetime_s} s")
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject:
            raise Unauthorized("the token's sub must be the user's external ID")
        name = claims.get("name")
        return _Verified(app_id, subject, name if isinstance(name, str) else None, expires)

    async def _user(
        self, verified: _Verified, state: _AppState, cached: bytes | None, generation: int
    ) -> int:
        user_id = decode(cached) if cached is not None else None
        if user_id is None:
            user_id = await self._links.load(verified.app_id, verified.subject, generation)
        if user_id is None:
            if not state.create_users:
                raise Unauthorized("the app has no user with this token's sub")
            user_id = await self._users.ensure(
                verified.app_id, verified.subject, (verified.name or "")[:64]
            )
        return user_id


def _header(token: str) -> dict[str, Any]:
    try:
        return jwt.get_unverified_header(token)
    except jwt.PyJWTError as error:
        raise Unauthorized(f"the token is not valid: {error}") from error


def _issuer(token: str) -> int:
    """The app that claims to have signed the token: read before verifying, only to
    pick the key the signature is then checked with."""
    try:
        issuer = jwt.decode(token, options={"verify_signature": False}).get("iss")
    except jwt.PyJWTError as error:
        raise Unauthorized(f"the token is not valid: {error}") from error
    if not isinstance(issuer, str) or not issuer.isdigit() or len(issuer) > 19:
        raise Unauthorized("the token's iss must be the app's ID")
    return int(issuer)


def _encode(app: App) -> bytes:
    state = {
        "revoked": app.revoked,
        "algorithms": list(app.algorithms),
        "secret": app.token_secret,
        "jwks": app.jwks,
        "jwks_url": app.jwks_url,
        "create_users": app.create_users,
    }
    return json.dumps(state, sort_keys=True).encode()
