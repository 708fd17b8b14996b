"""The Redis wire: connections, automatic pipelining, Lua scripts, the near cache.

Everything about talking to Redis fast lives here, behind this one face; the port
adapters beside this package (caches, timelines, queue, sketches) use only what it
exports. It imports nothing of feedloom outside itself (an import-linter contract), and
no private module of redis-py or of the standard library (tests/unit/test_no_private_apis.py).

- resp.py: one RESP2 connection (asyncio.Protocol + hiredis), shared by
- multiplexed.py: one connection that many batches share, reconnected when lost;
- autopipeline.py: what callers ask in the same loop turn travels as one batch;
- client.py: opening a client (one server or a cluster), the cluster's routed batches;
- scripts.py: Lua by SHA, one call per slot on a cluster;
- near_cache.py: views and counts kept in process while Redis says they are unchanged.
"""

from feedloom.adapters.redis.wire.client import (
    RedisUnavailable,
    open_client,
    parse_redis_url,
    redacted,
)
from feedloom.adapters.redis.wire.near_cache import (
    KEPT_VIEWS,
    NearCache,
    NearRegion,
    read_through,
)
from feedloom.adapters.redis.wire.resp import CONNECT_TIMEOUT_S, Address
from feedloom.adapters.redis.wire.scripts import (
    KNOWN_SLOTS,
    Arg,
    LuaScript,
    RedisClient,
    ScriptRunner,
    is_cluster,
    per_key_args,
)

__all__ = [
    "CONNECT_TIMEOUT_S",
    "KEPT_VIEWS",
    "KNOWN_SLOTS",
    "Address",
    "Arg",
    "LuaScript",
    "NearCache",
    "NearRegion",
    "RedisClient",
    "RedisUnavailable",
    "ScriptRunner",
    "is_cluster",
    "open_client",
    "parse_redis_url",
    "per_key_args",
    "read_through",
    "redacted",
]
