"""Redis connections: one server or a cluster, a bounded pool, a clear error at start.

A cluster is chosen by the URL scheme `redis+cluster://host:port` (or
`rediss+cluster://`), or by FEEDLOOM_REDIS_CLUSTER=true; one reachable node is enough,
the client discovers the rest. On a single server, a full pool makes callers wait for
a connection (up to POOL_WAIT_S) instead of failing: redis-py's default pool raises
"Too many connections" past 100, which a busy API process reaches.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import hiredis
from redis.asyncio import BlockingConnectionPool, RedisCluster
from redis.asyncio.cluster import ClusterNode, ClusterPipeline
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection
from redis.exceptions import RedisClusterException, RedisError
from redis.maint_notifications import MaintNotificationsConfig
from redis.typing import EncodableT

from feedloom.adapters.redis.wire.autopipeline import AutoPipelinedRedis
from feedloom.adapters.redis.wire.multiplexed import MultiplexedConnection
from feedloom.adapters.redis.wire.resp import CONNECT_TIMEOUT_S, Address
from feedloom.adapters.redis.wire.scripts import (
    KNOWN_SLOTS,
    RedisClient,
    ScriptRunner,
    known_slots,
)

POOL_SIZE = 256  # per process; blocked XREADGROUPs of the worker's consumers hold one each
POOL_WAIT_S = 20.0
CLUSTER_SUFFIX = "+cluster"


class RedisUnavailable(RuntimeError):
    """Redis did not answer at start-up."""


class _HiredisPacking:
    """redis-py packs commands in Python, about 2 µs per argument: most of the client
    cost of a 1,000-key fan-out call. hiredis packs the same call about 7x faster."""

    def pack_command(self, *args: EncodableT) -> list[bytes]:
        first = args[0]
        words = first.split() if isinstance(first, (str, bytes)) else [first]  # "SCRIPT LOAD"
        try:
            return [hiredis.pack_command((*words, *args[1:]))]
        except TypeError:  # a type hiredis does not pack (memoryview...): the slow path
            packed: list[bytes] = super().pack_command(*args)  # type: ignore[misc]
            return packed


class _PackedConnection(_HiredisPacking, Connection):
    pass


class _PackedSSLConnection(_HiredisPacking, SSLConnection):
    pass


class _PackedUnixConnection(_HiredisPacking, UnixDomainSocketConnection):
    pass


_PACKED = {"redis": _PackedConnection, "rediss": _PackedSSLConnection}


class RoutedCluster(RedisCluster):
    """A cluster client that also keeps one multiplexed connection per primary
    (multiplexed.py), over which per-node batches of script calls travel without
    redis-py's cluster pipeline (scripts.py `ScriptRunner.call_per_slot`)."""

    def __init__(self, *args: Any, slots: int = KNOWN_SLOTS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._multiplexed: dict[str, MultiplexedConnection] = {}
        self.known_slots = known_slots(slots)  # shared by every ScriptRunner on it

    def multiplexed(self, node: ClusterNode) -> MultiplexedConnection | None:
        """The node's multiplexed connection; None over TLS (redis-py's path)."""
        if issubclass(node.connection_class, SSLConnection):
            return None
        connection = self._multiplexed.get(node.name)
        if connection is None:
            settings = node.connection_kwargs
            connection = MultiplexedConnection(Address.of(settings), settings.get("socket_timeout"))
            self._multiplexed[node.name] = connection
        return connection

    def pipeline(
        self, transaction: Any | None = None, shard_hint: Any | None = None
    ) -> ClusterPipeline:
        if transaction or shard_hint:
            return super().pipeline(transaction, shard_hint)
        return _RoutedPipeline(self)  # type: ignore[abstract]  # redis-py's own stub gap

    async def aclose(self) -> None:
        connections, self._multiplexed = list(self._multiplexed.values()), {}
        for connection in connections:
            await connection.close()
        await super().aclose()


# Commands whose only key is their first argument (with no more arguments than one key
# where the command takes several): routed by it. Only commands whose replies RESP2 (the
# multiplexed connection's) and RESP3 (redis-py's) shape alike: not HGETALL, SMEMBERS or
# the sorted sets' scores.
_FIRST_ARGUMENT_IS_THE_KEY = frozenset(
    {
        *("GET", "SET", "GETEX", "SETEX", "PSETEX", "INCR", "INCRBY", "DECRBY"),
        *("HGET", "HMGET", "HSET", "HDEL", "HINCRBY", "HEXISTS"),
        *("LRANGE", "LINDEX", "LLEN", "LPUSH", "RPUSH", "LTRIM", "PFADD"),
        *("EXPIRE", "PEXPIRE", "TTL", "PTTL", "XADD"),
        *("SADD", "SREM", "SISMEMBER", "SMISMEMBER", "SCARD"),
        *("ZADD", "ZREM", "ZCARD", "ZREMRANGEBYRANK", "ZREMRANGEBYSCORE"),
    }
)
_ONE_KEY_ONLY = frozenset({"PFCOUNT", "UNLINK", "DEL", "EXISTS", "TOUCH"})


def _routable(args: tuple[Any, ...], options: dict[str, Any]) -> bool:
    """A command of one key whose reply needs no options (`keys` only feeds redis-py's
    client-side cache)."""
    if (options and set(options) != {"keys"}) or len(args) < 2 or not isinstance(args[0], str):
        return False
    name = args[0].upper()
    return name in _FIRST_ARGUMENT_IS_THE_KEY or (name in _ONE_KEY_ONLY and len(args) == 2)


class _RoutedPipeline(ClusterPipeline):
    """A cluster pipeline of one-key commands goes straight to the nodes: each node's
    commands in one write over its multiplexed connection, all nodes at once
    (scripts.py `ScriptRunner.each_on_its_node`, which also follows a stale slot map's
    redirections). redis-py's cluster pipeline resolves a routing policy per command
    and runs a connection per node: most of a cluster read's client CPU
    (docs/BENCHMARKS.md). Anything else (a command of many keys or none, options that
    shape a reply, TLS) runs as redis-py's own pipeline."""

    def __init__(self, client: RoutedCluster) -> None:
        super().__init__(client)
        self._routed_client = client
        self._queued: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def execute_command(self, *args: Any, **kwargs: Any) -> _RoutedPipeline:
        self._queued.append((args, kwargs))
        return self

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        queued, self._queued = self._queued, []
        if not queued:
            return []
        client = self._routed_client
        if not all(_routable(args, options) for args, options in queued):
            pipe = RedisCluster.pipeline(client)  # redis-py's own
            for args, options in queued:
                pipe.execute_command(*args, **options)
            return await pipe.execute(raise_on_error, allow_redirections)
        # Over TLS (no multiplexed connections) the runner uses redis-py's pipeline.
        runner = ScriptRunner(client)
        return await runner.each_on_its_node(
            [args for args, _ in queued], raise_on_error, self._shaped
        )

    def _shaped(self, command: tuple[Any, ...], reply: Any) -> Any:
        """A reply as redis-py's own path returns it (its response callback)."""
        callback = self._routed_client.response_callbacks.get(command[0].upper())
        return reply if callback is None else callback(reply)


def parse_redis_url(url: str, cluster: bool = False) -> tuple[str, bool]:
    """The plain URL redis-py understands, and whether it names a cluster."""
    parts = urlsplit(url)
    if parts.scheme.endswith(CLUSTER_SUFFIX):
        parts = parts._replace(scheme=parts.scheme.removesuffix(CLUSTER_SUFFIX))
        cluster = True
    return urlunsplit(parts), cluster


def redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.password, "***", 1)))


async def open_client(url: str, cluster: bool = False, slots: int = KNOWN_SLOTS) -> RedisClient:
    """A connected client; RedisUnavailable if nothing answers. A cluster client
    remembers the slots of up to `slots` keys."""
    plain, is_cluster = parse_redis_url(url, cluster)
    client: RedisClient
    if is_cluster:
        client = RoutedCluster.from_url(
            plain,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
            max_connections=POOL_SIZE,
            slots=slots,
        )
    else:
        pool = BlockingConnectionPool.from_url(
            plain,
            connection_class=_PACKED.get(urlsplit(plain).scheme, _PackedUnixConnection),
            max_connections=POOL_SIZE,
            timeout=POOL_WAIT_S,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
            # "auto" (redis-py 8's default) makes the pool skip its stale-connection
            # check on checkout: after a Redis restart a blocking XREADGROUP would take
            # a connection the server closed and fail instead of reconnecting.
            maint_notifications_config=MaintNotificationsConfig(enabled=False),
        )
        client = AutoPipelinedRedis.from_pool(pool)
    try:
        await client.ping()
    except (RedisError, RedisClusterException, OSError) as error:
        await client.aclose()
        kind = "Redis Cluster" if is_cluster else "Redis"
        raise RedisUnavailable(
            f"{kind} at {redacted(url)} is unreachable ({type(error).__name__}: {error}); "
            "start it, or unset FEEDLOOM_REDIS_URL to use the in-process caches"
        ) from error
    return client
