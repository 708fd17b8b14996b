"""`feedloom bench timelines`: fan-out insert speed and memory of the Redis timeline store.

Against FEEDLOOM_REDIS_URL (default redis://127.0.0.1:6379), under a key prefix of its
own that it deletes at the end (SCAN, never FLUSH):
(a) `--users` full timelines are built, then `--posts` new posts are fanned out to all
    of them in batches of `--batch` followers through `insert_if_present`: inserts/s.
    The same work then goes through a naive baseline over sorted sets built the same
    way (per key ZADD + ZREMRANGEBYRANK, one pipeline per batch), in the same run.
(b) `MEMORY USAGE` of one full timeline in each encoding.
`--concurrency N` fans out N posts at once, as N consumers of one worker process do.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from statistics import median

from feedloom.adapters.redis.connect import delete_all_keys
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.timeline_store import RedisTimelineStore
from feedloom.adapters.redis.wire import RedisClient, open_client
from feedloom.gather import bounded

DEFAULT_URL = "redis://127.0.0.1:6379"
MS_SHIFT = 22  # Snowflake: the ID's bits above this are milliseconds (domain/ids.py)
SETUP_CONCURRENCY = 50  # building the full timelines (not measured)
Fanout = Callable[[Sequence[int], int], Awaitable[int]]


@dataclass(frozen=True)
class Shape:
    users: int
    posts: int
    batch: int
    length: int
    concurrency: int
    rounds: int


@dataclass
class Measured:
    name: str
    inserts_per_round: int
    seconds: list[float] = field(default_factory=list)
    bytes_per_timeline: int = 0

    @property
    def rates(self) -> list[float]:
        return sorted(self.inserts_per_round / seconds for seconds in self.seconds)


async def measure_timelines(url: str, cluster: bool, shape: Shape) -> list[Measured]:
    """feedloom's store, then the baseline; RedisUnavailable if Redis does not answer."""
    client = await open_client(url, cluster)
    keys = RedisKeys(f"flbench{uuid.uuid4().hex[:8]}")
    users, length = range(shape.users), shape.length
    old = _ids(length, start_ms=1_000)
    ours = Measured("feedloom: list of packed IDs + Lua", shape.users * shape.posts)
    theirs = Measured("baseline: sorted set, ZADD + ZREMRANGEBYRANK", ours.inserts_per_round)
    try:
        store = RedisTimelineStore(client, keys, length)
        naive = _SortedSetTimelines(client, keys, length)
        await bounded([partial(store.replace, user, old) for user in users], SETUP_CONCURRENCY)
        chunks = _batches(users, 100)
        await bounded([partial(naive.build, chunk, old) for chunk in chunks], SETUP_CONCURRENCY)
        posted: list[int] = []
        for round_ in range(shape.rounds):
            new = _ids(shape.posts, start_ms=10_000_000 + round_ * shape.posts)
            posted += new
            # Interleaved rounds: both stores see the same load on the machine.
            ours.seconds.append(await _fan_out(store.insert_if_present, shape, new))
            theirs.seconds.append(await _fan_out(naive.insert, shape, new))
        await _check(store, posted + old, length)
        ours.bytes_per_timeline = await client.memory_usage(keys.timeline(0)) or 0
        theirs.bytes_per_timeline = await client.memory_usage(naive.key(0)) or 0
    finally:
        await delete_all_keys(client, keys)
        await client.aclose()
    return [ours, theirs]


def _ids(count: int, start_ms: int) -> list[int]:
    return [((start_ms + n) << MS_SHIFT) | n % 4096 for n in range(count)]


def _batches(items: Sequence[int], size: int) -> list[Sequence[int]]:
    return [items[at : at + size] for at in range(0, len(items), size)]


async def _fan_out(insert: Fanout, shape: Shape, post_ids: list[int]) -> float:
    """Seconds to push every post to every user, `concurrency` posts at a time; each
    post's batches go one after another, as fan_out.py sends them."""
    followers = _batches(range(shape.users), shape.batch)
    queue = list(post_ids)

    async def consumer() -> None:
        while queue:
            post_id = queue.pop(0)
            for chunk in followers:
                await insert(chunk, post_id)

    started = time.perf_counter()
    await asyncio.gather(*(consumer() for _ in range(shape.concurrency)))
    return time.perf_counter() - started


async def _check(store: RedisTimelineStore, delivered: list[int], length: int) -> None:
    expected = sorted(delivered, reverse=True)[:length]
    if await store.read(0, None, length) != expected:
        raise RuntimeError("bench: a timeline does not hold the newest IDs in order")


class _SortedSetTimelines:
    """The naive store: a sorted set per user. Score = the ID's milliseconds (an exact
    double), member = the decimal ID, so equal milliseconds still order by member."""

    def __init__(self, client: RedisClient, keys: RedisKeys, length: int) -> None:
        self._client = client
        self._keys = keys
        self._length = length

    def key(self, user: int) -> str:
        return self._keys.view("zset", user)

    async def build(self, users: Sequence[int], post_ids: list[int]) -> None:
        members = {str(post_id): post_id >> MS_SHIFT for post_id in post_ids}
        pipe = self._client.pipeline(transaction=False)
        for user in users:
            pipe.zadd(self.key(user), members)
        await pipe.execute()

    async def insert(self, users: Sequence[int], post_id: int) -> int:
        pipe = self._client.pipeline(transaction=False)
        for user in users:
            pipe.zadd(self.key(user), {str(post_id): post_id >> MS_SHIFT})
            pipe.zremrangebyrank(self.key(user), 0, -self._length - 1)
        await pipe.execute()
        return len(users)


def render_timelines(results: list[Measured], shape: Shape) -> str:
    ours, theirs = results
    lines = [
        f"users={shape.users} posts={shape.posts} batch={shape.batch} length={shape.length} "
        f"concurrency={shape.concurrency} rounds={shape.rounds}",
        "",
        f"| store | inserts/s (median) | best round | bytes per full {shape.length}-ID timeline |",
        "|---|---:|---:|---:|",
    ]
    for result in results:
        rates = result.rates
        lines.append(
            f"| {result.name} | {median(rates):,.0f} | {rates[-1]:,.0f} "
            f"| {result.bytes_per_timeline:,} |"
        )
    lines += [
        "",
        f"fan-out speed: {median(ours.rates) / median(theirs.rates):.1f}x the baseline "
        f"(median rounds); memory: "
        f"{theirs.bytes_per_timeline / max(ours.bytes_per_timeline, 1):.1f}x less "
        f"(MEMORY USAGE; raw IDs: {shape.length * 8:,} bytes)",
    ]
    return "\n".join(lines)
