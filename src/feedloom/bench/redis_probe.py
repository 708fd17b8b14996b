"""What a benchmark asks Redis directly: timeline memory, and removing its own keys.

Memory is `MEMORY USAGE key SAMPLES 0` (every element counted) over a sample of home
timeline keys; cleanup is SCAN + UNLINK of one prefix's keys, never FLUSHALL/FLUSHDB.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

from redis.asyncio import Redis

from feedloom.adapters.redis.connect import delete_all_keys
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import open_client


async def delete_prefix(redis_url: str, prefix: str) -> int:
    """Every key of `prefix`, on every node of a cluster too (delete_all_keys)."""
    client = await open_client(redis_url)
    try:
        return await delete_all_keys(client, RedisKeys(prefix))
    finally:
        await client.aclose()


async def timeline_memory(
    redis_url: str, prefix: str, user_ids: Sequence[int], sample: int = 200, seed: int = 0
) -> dict[str, float | int] | None:
    """Bytes per home timeline over a random sample of these users (absent keys skipped):
    {"sampled", "mean_bytes", "median_bytes", "max_bytes"}; None if none exists."""
    keys = RedisKeys(prefix)
    chosen = random.Random(seed).sample(list(user_ids), min(sample, len(user_ids)))
    client = Redis.from_url(redis_url)
    try:
        sizes = []
        for user_id in chosen:
            size = await client.memory_usage(keys.timeline(user_id), samples=0)
            if size is not None:
                sizes.append(int(size))
    finally:
        await client.aclose()
    if not sizes:
        return None
    return {
        "sampled": len(sizes),
        "mean_bytes": statistics.fmean(sizes),
        "median_bytes": statistics.median(sizes),
        "max_bytes": max(sizes),
    }
