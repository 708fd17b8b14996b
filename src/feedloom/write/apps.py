"""Apps and their API keys: create, list, rotate, revoke (`feedloom apps …`), and the
key of a request -> its app (api/deps.py).

A key is `fl_sk_` + 32 random bytes, shown once; the store keeps its SHA-256, so a
leaked table holds no usable key. A key is looked up through the token cache
(ports.RecordCache) and revocation or rotation invalidates it there, so the old key is
refused at once by every process. Each request a key authenticates is charged to the
app's rate limit (FEEDLOOM_RATE_LIMITS__APPS) and written to the audit log.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from feedloom.domain.apps import (
    API_KEY_PREFIX,
    App,
    AppCaller,
    Scope,
    app_key,
    check_algorithms,
    check_app_name,
    check_jwks_url,
    scopes_text,
)
from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.domain.ids import IdGenerator
from feedloom.ports import Clock, RecordCache
from feedloom.ports.apps import AppStore
from feedloom.write.accounts import token_digest
from feedloom.write.throttle import Throttle


@dataclass(frozen=True, slots=True)
class NewApp:
    app: App
    api_key: str  # shown once


@dataclass(frozen=True, slots=True)
class AppOptions:
    """How the app's user tokens are checked (docs/INTEGRATION.md)."""

    algorithms: tuple[str, ...] = ("HS256",)
    jwks: str | None = None
    jwks_url: str | None = None
    create_users: bool = False


def new_api_key() -> str:
    return API_KEY_PREFIX + secrets.token_urlsafe(32)


def key_cache_key(digest: str) -> str:
    return f"appkey:{digest}"


class AppAdmin:
    """`feedloom apps create | list | rotate | revoke`."""

    def __init__(self, store: AppStore, cache: RecordCache, ids: IdGenerator, clock: Clock):
        self._store, self._cache, self._ids, self._clock = store, cache, ids, clock

    async def create(
        self, name: str, scopes: frozenset[Scope], options: AppOptions | None = None
    ) -> NewApp:
        options = options or AppOptions()
        app = App(
            app_id=self._ids.next_id(),
            name=check_app_name(name),
            scopes=scopes,
            token_secret=secrets.token_urlsafe(32),
            algorithms=check_algorithms(options.algorithms),
            jwks=options.jwks,
            jwks_url=check_jwks_url(options.jwks_url),
            create_users=options.create_users,
            created_at=self._clock(),
        )
        key = new_api_key()
        await self._store.create_app(app, token_digest(key))
        return NewApp(app, key)

    async def list(self) -> list[App]:
        return await self._store.apps()

    async def rotate(self, app_id: int) -> str:
        """A new key; the old one is refused from now on."""
        key = new_api_key()
        old = await self._store.replace_key(app_id, token_digest(key), self._clock())
        if old is None:
            raise NotFound(f"no live app {app_id}")
        await self._cache.invalidate([key_cache_key(old)])
        return key

    async def revoke(self, app_id: int) -> App:
        """The key and every user token the app signed are refused from now on."""
        digest = await self._store.revoke(app_id, self._clock())
        if digest is None:
            raise NotFound(f"no app {app_id}")
        await self._cache.invalidate([key_cache_key(digest), app_key(app_id)])
        app = await self._store.app(app_id)
        assert app is not None  # revoked, never deleted
        return app


class AppKeys:
    """An API key -> the app it authenticates, charged and audited."""

    def __init__(self, store: AppStore, cache: RecordCache, throttle: Throttle, clock: Clock):
        self._store, self._cache, self._throttle, self._clock = store, cache, throttle, clock

    async def caller(self, key: str, action: str) -> AppCaller:
        if not key.startswith(API_KEY_PREFIX):
            raise Unauthorized("send `Authorization: Bearer fl_sk_…`: an app's API key")
        cache_key = key_cache_key(token_digest(key))
        [(cached, generation)] = await self._cache.get_many([cache_key])
        caller = _decode(cached) if cached is not None else None
        if caller is None:
            caller = await self._load(key, cache_key, generation)
        await self._throttle.key("apps", str(caller.app_id))
        await self._store.audit(caller.app_id, action, self._clock())
        return caller

    async def _load(self, key: str, cache_key: str, generation: int) -> AppCaller:
        app = await self._store.app_by_key(token_digest(key))
        if app is None or app.revoked:
            raise Unauthorized("the API key is unknown, rotated or revoked")
        caller = AppCaller(app.app_id, app.scopes)
        await self._cache.put(cache_key, _encode(caller), generation)
        return caller


def _encode(caller: AppCaller) -> bytes:
    return f"k1 {caller.app_id} {scopes_text(caller.scopes)}".encode()


def _decode(cached: bytes) -> AppCaller | None:
    """None for a record of another shape (a rolling deploy reads it as a miss)."""
    from feedloom.domain.apps import parse_scopes

    version, _, rest = cached.decode().partition(" ")
    if version != "k1":
        return None
    app_id, _, scopes = rest.partition(" ")
    return AppCaller(int(app_id), parse_scopes(scopes))


__all__ = ["AppAdmin", "AppKeys", "AppOptions", "NewApp", "key_cache_key", "replace"]
