"""Rate limits on Redis: the `limits` library's moving window (its own Lua scripts,
one key per rule and key), shared by every API process, and charge marks beside it.

On one server the library's client shares feedloom's connection pool. On a Redis
Cluster the library opens its own cluster client from the same URL (it cannot be
handed one); each window is one key, so every script touches a single slot. Keys sit
under the deployment's prefix (`<prefix>:rl:<rule>/<key>/...` and `<prefix>:rlm:{..}`),
so `delete_all_keys` and test prefixes cover them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import cast
from urllib.parse import urlsplit

from limits.aio.storage import RedisClusterStorage, RedisStorage, Storage
from limits.aio.storage.redis.redispy import RedispyBridge

from feedloom.adapters.memory.rate_limiter import (
    PENDING_TTL_S,
    Claim,
    LimitsRateLimiter,
    window_item,
)
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import (
    CONNECT_TIMEOUT_S,
    LuaScript,
    RedisClient,
    ScriptRunner,
    is_cluster,
    parse_redis_url,
)
from feedloom.ports import RateRule

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


class RedisLimitsRateLimiter(LimitsRateLimiter):
    """`hit_many` sends the library's own moving-window script once per hit, all in one
    round trip through feedloom's client (`ScriptRunner.call_each`: one pipeline on a
    server, each node's hits in one write on a cluster): the same keys, the same
    script, the same outcome as one `hit` after another (hits on one window run in
    order), instead of a round trip each. A fan-out batch's content check charges one
    window per post this way."""

    def __init__(
        self, storage: Storage, marks: RedisChargeMarks, client: RedisClient | None = None
    ) -> None:
        super().__init__(storage, marks)
        bridge = getattr(storage, "bridge", None)
        self._batched: tuple[ScriptRunner, RedispyBridge, LuaScript] | None = None
        if client is not None and isinstance(bridge, RedispyBridge):
            source = bridge.lua_acquire_moving_window.script
            text = source.decode() if isinstance(source, bytes) else str(source)
            self._batched = ScriptRunner(client), bridge, LuaScript(text)

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        if len(hits) < 2 or self._batched is None:
            return await super().hit_many(hits)
        runner, bridge, script = self._batched
        now = time.time()
        calls = []
        for rule, key in hits:
            item = window_item(rule)
            name = bridge.prefixed_key(item.key_for(key))
            calls.append((name, (now, item.amount, item.get_expiry(), 1)))
        return [bool(acquired) for acquired in await runner.call_each(script, calls)]


def redis_rate_limiter(
    client: RedisClient, keys: RedisKeys, url: str, cluster: bool = False
) -> tuple[LimitsRateLimiter, Close]:
    storage, close = _storage(client, keys, url, cluster)
    return RedisLimitsRateLimiter(storage, RedisChargeMarks(client, keys), client), close


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
