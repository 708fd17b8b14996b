"""What `feedloom doctor` asks a Redis server: its version, eviction policy and clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from feedloom.adapters.redis.wire import open_client


@dataclass(frozen=True, slots=True)
class RedisFacts:
    version: str
    maxmemory_policy: str
    now: datetime


async def redis_facts(url: str, cluster: bool) -> RedisFacts:
    """RedisUnavailable if nothing answers. On a cluster, one node speaks for all."""
    client = await open_client(url, cluster)
    try:
        info = _one_node(await client.info())
        seconds, micros = _one_node(await client.time())
        return RedisFacts(
            version=str(info.get("redis_version", "?")),
            maxmemory_policy=str(info.get("maxmemory_policy", "?")),
            now=datetime.fromtimestamp(int(seconds) + int(micros) / 1e6, UTC),
        )
    finally:
        await client.aclose()


def _one_node(answer: Any) -> Any:
    # A cluster answers node -> reply for commands sent to every node.
    per_node = isinstance(answer, dict) and answer and "redis_version" not in answer
    if per_node and all(isinstance(reply, dict) for reply in answer.values()):
        return next(iter(answer.values()))
    return answer
