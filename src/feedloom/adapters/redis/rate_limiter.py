"""Rate limits on Redis: the `limits` library's moving window (its own Lua scripts,
one key per rule and key), shared by every API process, and charge marks beside it.

On one server the library's client shares feedloom's connection pool. On a Redis
Cluster the library opens its own cluster client from the same URL (it cannot be
handed one); each window is one key, so every script touches a single slot. Keys sit
under the deployment's prefix (`<prefix>:rl:<rule>/<key>/...` and `<prefix>:rlm:{..}`),
so `delete_all_keys` and test prefixes cover them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import cast
from urllib.parse import urlsplit

from limits.aio.storage import RedisClusterStorage, RedisStorage, Storage

from feedloom.adapters.memory.rate_limiter import PENDING_TTL_S, Claim, LimitsRateLimiter
from feedloom.adapters.redis.client import CONNECT_TIMEOUT_S, parse_redis_url
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.scripts import RedisClient, is_cluster

Close = Callable[[], Awaitable[None]]


class RedisChargeMarks:
    """A mark is one string: "p" (pending, short-lived) or "c" (charged, one window)."""

    def __init__(self, client: RedisClient, keys: RedisKeys) -> None:
        self._client, self._keys = client, keys

    async def claim(self, token: str) -> Claim:
        key = self._keys.rate_mark(token)
        if await self._client.set(key, "p", nx=True, ex=PENDING_TTL_S):
            return "new"
        state = cast(bytes | None, await self._client.get(key))
        if state is None:  # expired in between: claim again
            return await self.claim(token)
        return "charged" if state == b"c" else "pending"

    async def settle(self, token: str, charged: bool, ttl_s: int) -> None:
        key = self._keys.rate_mark(token)
        if charged:
            await self._client.set(key, "c", ex=max(1, ttl_s))
        else:
            await self._client.delete(key)


def redis_rate_limiter(
    client: RedisClient, keys: RedisKeys, url: str, cluster: bool = False
) -> tuple[LimitsRateLimiter, Close]:
    storage, close = _storage(client, keys, url, cluster)
    return LimitsRateLimiter(storage, RedisChargeMarks(client, keys)), close


def _storage(
    client: RedisClient, keys: RedisKeys, url: str, cluster: bool
) -> tuple[Storage, Close]:
    plain, named_cluster = parse_redis_url(url, cluster)
    prefix = keys.rate_prefix()
    if named_cluster or is_cluster(client):
        parts = urlsplit(plain)
        storage = RedisClusterStorage(
            f"async+{parts.scheme}+cluster://{parts.netloc}",
            implementation="redispy",
            key_prefix=prefix,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
        )
        return storage, storage.bridge.storage.aclose  # type: ignore[attr-defined]
    shared = RedisStorage(
        f"async+{plain}",
        implementation="redispy",
        key_prefix=prefix,
        connection_pool=client.connection_pool,  # type: ignore[union-attr,arg-type]
    )
    return shared, _nothing


async def _nothing() -> None:
    """The shared pool is closed with feedloom's own client."""
