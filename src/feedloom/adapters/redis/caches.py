"""Shared caches in Redis: serialized views, displayed counts, feed sessions, guarded records.

Every key expires: these are caches, rebuilt from the durable store on a miss, so a
TTL bounds memory without an eviction policy having to guess. Multi-key reads and
writes are pipelined; a cluster pipeline splits them per node by itself.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic, TypeVar, cast

from cachetools import FIFOCache

from feedloom.adapters.redis import lua
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import (
    LuaScript,
    NearRegion,
    RedisClient,
    ScriptRunner,
    is_cluster,
    read_through,
)
from feedloom.domain.model import Counts

DEFAULT_TTL = timedelta(days=1)
INCREMENT = LuaScript(lua.INCREMENT_COUNTERS)
INCREMENT_SHARDS = LuaScript(lua.INCREMENT_SHARDS)
PUT_RECORD, APPEND_RECORD = LuaScript(lua.PUT_RECORD), LuaScript(lua.APPEND_RECORD)
READ_COUNTERS = LuaScript(lua.READ_COUNTERS)
RECORD_TTL = timedelta(hours=1)


def _ms(ttl: timedelta) -> int:
    return max(1, int(ttl.total_seconds() * 1000))


V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Codec(Generic[V]):
    """How one kind of view is stored: views.py has the post and profile codecs."""

    dump: Callable[[V], bytes]
    load: Callable[[int, bytes], V | None]  # None: a shape it does not know (a miss)


RAW: Codec[bytes] = Codec(lambda value: value, lambda _key, data: data)


async def _get_all(client: RedisClient, names: Sequence[str]) -> list[bytes | None]:
    """The values of many keys, in order: one MGET (one reply, parsed at once) on a
    single server; on a cluster, which refuses MGET across slots, one GET per key,
    pipelined per node."""
    if is_cluster(client) or not names:
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.get(name)
        return cast(list[bytes | None], await pipe.execute())
    return cast(list[bytes | None], await client.mget(names))


DECODED_VIEWS = 50_000  # decoded views a cache keeps per kind unless told otherwise


class Decoded(Generic[V]):
    """Views decoded before, by key, each with the bytes it came from: the same bytes
    give the same (immutable) view, and comparing them costs a fortieth of decoding
    (a warm page decodes 25 posts and their authors; where nothing is kept near: a
    cluster, TLS). Changed bytes decode again, so a view is never staler than Redis.
    Bounded: the oldest go first."""

    def __init__(self, load: Callable[[int, bytes], V | None], limit: int = DECODED_VIEWS) -> None:
        self._load = load
        self._views: FIFOCache[int, tuple[bytes, V | None]] = FIFOCache(maxsize=limit)

    def __call__(self, key: int, data: bytes) -> V | None:
        try:
            known = self._views[key]
        except KeyError:
            pass
        else:
            if known[0] == data:
                return known[1]
        view = self._load(key, data)
        self._views[key] = (data, view)
        return view


class RedisViewCache(Generic[V]):
    """Cache-aside views of one kind (`kind` goes into the key: "post", "user"). With
    a near region (near_cache.py), the views this process read stay in it while Redis
    says they are unchanged; writes need nothing more, their own invalidations (which
    every later read waits for) drop them."""

    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        kind: str,
        codec: Codec[V],
        ttl: timedelta = DEFAULT_TTL,
        near: NearRegion[V] | None = None,
        decoded: int = DECODED_VIEWS,
    ) -> None:
        self._client = client
        self._keys = keys
        self._kind = kind
        self._codec = codec
        self._decoded = Decoded(codec.load, decoded)
        self._ttl_ms = _ms(ttl)
        self._near = near

    async def get_many(self, keys: Sequence[int]) -> dict[int, V]:
        return await read_through(self._near, keys, self._fetch)

    async def _fetch(self, keys: Sequence[int]) -> dict[int, V]:
        names = [self._keys.view(self._kind, key) for key in keys]
        values = await _get_all(self._client, names)
        load, views = self._decoded, {}
        for key, value in zip(keys, values, strict=True):
            if value is not None and (view := load(key, value)) is not None:
                views[key] = view
        return views

    async def set_many(self, items: Mapping[int, V]) -> None:
        pipe = self._client.pipeline(transaction=False)
        for key, value in items.items():
            pipe.set(self._keys.view(self._kind, key), self._codec.dump(value), px=self._ttl_ms)
        await pipe.execute()

    async def delete_many(self, keys: Sequence[int]) -> None:
        pipe = self._client.pipeline(transaction=False)
        for key in keys:
            # One key per command: a cluster pipeline runs multi-key UNLINK on its own.
            pipe.execute_command("UNLINK", self._keys.view(self._kind, key))
        await pipe.execute()


class RedisCounterStore:
    """One small hash per post: l = likes, c = comments, and n = its number of
    sub-counters while the post is hot (keys.py `counter_shard`, summed on read).
    Every change also adds the post to the touched set reconciliation drains. With a
    near region (near_cache.py), the counts this process read stay in it until Redis
    says a counter or sub-counter of the post changed."""

    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        ttl: timedelta = DEFAULT_TTL,
        shards: int = 16,
        near: NearRegion[Counts] | None = None,
    ) -> None:
        self._client = client
        self._keys = keys
        self._scripts = ScriptRunner(client)
        self._ttl_ms = _ms(ttl)
        self._shards = shards
        self._near = near

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        return await read_through(self._near, post_ids, self._fetch)

    async def _fetch(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        keys = [self._keys.counter(post_id) for post_id in post_ids]
        if is_cluster(self._client) or not keys:
            return await self._get_many_per_node(post_ids)
        # One script call, one reply: likes and comments, key after key, shards summed.
        flat = await self._scripts.call(READ_COUNTERS, keys, [])
        pairs = [flat[i : i + 2] for i in range(0, len(flat), 2)]
        found = {}
        for post_id, (likes, comments) in zip(post_ids, pairs, strict=True):
            if likes is not None:
                found[post_id] = Counts(likes=int(likes), comments=int(comments or 0))
        return found

    async def _get_many_per_node(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """A cluster: the counters, then the sub-counters of the sharded ones (a second
        round trip, for hot posts only)."""
        pipe = self._client.pipeline(transaction=False)
        for post_id in post_ids:
            pipe.hmget(self._keys.counter(post_id), ["l", "c", "n"])
        found, sharded = {}, {}
        for post_id, (likes, comments, shards) in zip(post_ids, await pipe.execute(), strict=True):
            if likes is not None:
                found[post_id] = Counts(likes=int(likes), comments=int(comments or 0))
                if shards:
                    sharded[post_id] = int(shards)
        parts = await self._read_shards(sharded)
        for post_id, part in parts.items():
            total = found[post_id]
            found[post_id] = Counts(
                max(0, total.likes + part.likes), max(0, total.comments + part.comments)
            )
        return found

    async def _read_shards(self, sharded: Mapping[int, int]) -> dict[int, Counts]:
        if not sharded:
            return {}
        pipe = self._client.pipeline(transaction=False)
        for post_id, shards in sharded.items():
            for shard in range(shards):
                pipe.hmget(self._keys.counter_shard(post_id, shard), ["l", "c"])
        replies = iter(await pipe.execute())
        sums = {}
        for post_id, shards in sharded.items():
            likes = comments = 0
            for _ in range(shards):
                part_likes, part_comments = next(replies)
                likes, comments = likes + int(part_likes or 0), comments + int(part_comments or 0)
            sums[post_id] = Counts(likes, comments)
        return sums

    async def set_many(self, counts: Mapping[int, Counts]) -> None:
        """A recount replaces the total: the post's sub-counters go, as does its mark."""
        pipe = self._client.pipeline(transaction=False)
        for post_id, count in counts.items():
            key = self._keys.counter(post_id)
            pipe.hset(key, mapping={"l": count.likes, "c": count.comments})
            pipe.hdel(key, "n")
            pipe.pexpire(key, self._ttl_ms)
            self._unlink_shards(pipe, post_id)
        await pipe.execute()

    def _unlink_shards(self, pipe: Any, post_id: int) -> None:
        shard_keys = [self._keys.counter_shard(post_id, i) for i in range(self._shards)]
        if is_cluster(self._client):  # one slot each: one command each
            for key in shard_keys:
                pipe.execute_command("UNLINK", key)
        else:
            pipe.execute_command("UNLINK", *shard_keys)

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        sharded = sharded or {}
        post_ids = list(deltas)
        mains = {p: (Counts() if p in sharded else deltas[p]) for p in post_ids}
        await self._scripts.call_per_slot(
            INCREMENT,
            [self._keys.counter(post_id) for post_id in post_ids],
            (self._ttl_ms,),
            [
                (mains[p].likes, mains[p].comments, self._shards if p in sharded else 0)
                for p in post_ids
            ],
        )
        if sharded:
            await self._scripts.call_per_slot(
                INCREMENT_SHARDS,
                [self._keys.counter_shard(p, shard % self._shards) for p, shard in sharded.items()],
                (self._ttl_ms,),
                [(deltas[p].likes, deltas[p].comments) for p in sharded],
            )
        if post_ids:
            await self._client.sadd(self._keys.touched_counters(), *post_ids)

    async def demote(self, post_ids: Sequence[int]) -> None:
        """Fold the sub-counters back into the counter. A sub-counter written by another
        process between the read and the unlink is lost: reconciliation finds it."""
        sums = await self._read_shards({post_id: self._shards for post_id in post_ids})
        await self._scripts.call_per_slot(
            INCREMENT,
            [self._keys.counter(post_id) for post_id in post_ids],
            (self._ttl_ms,),
            [(sums[p].likes, sums[p].comments, -1) for p in post_ids],
        )
        pipe = self._client.pipeline(transaction=False)
        for post_id in post_ids:
            self._unlink_shards(pipe, post_id)
        await pipe.execute()

    async def take_touched(self, limit: int) -> list[int]:
        taken = await self._client.spop(self._keys.touched_counters(), limit)
        return sorted(int(post_id) for post_id in taken or ())


class RedisFeedSessionStore:
    """A ranked feed's first-page ID list, packed 8 bytes per ID, in ranked order."""

    def __init__(self, client: RedisClient, keys: RedisKeys) -> None:
        self._client = client
        self._keys = keys

    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None:
        packed = struct.pack(f">{len(post_ids)}Q", *post_ids)
        await self._client.set(self._keys.session(session_id), packed, ex=max(1, ttl_s))

    async def load(self, session_id: str) -> list[int] | None:
        packed = cast(bytes | None, await self._client.get(self._keys.session(session_id)))
        if packed is None:
            return None
        return list(struct.unpack(f">{len(packed) // 8}Q", packed))


NEAR_RECORD_BYTES = 16_384  # longer records are not kept near (a reader following 800)
RECORD_OVERHEAD = 200  # what a kept record costs beside its bytes (tuple, ints, cache slot)


def near_record_size(kept: tuple[bytes | None, int]) -> int:
    """What a kept record weighs against its region's byte budget."""
    return len(kept[0] or b"") + RECORD_OVERHEAD


class RedisRecordCache:
    """Generation-guarded records of one kind (ports.RecordCache): a string per record
    and a counter per generation, both expiring; generations live twice as long, so a
    bump always outlives the records it guards against.

    With a near region (near_cache.py; records keyed by user ID, made with
    `RedisKeys.generation_prefix` and `near_record_size`), what this process read or
    filled stays in it while Redis says the generation has not changed: absent records
    too, with their generation. Every change of a record bumps its generation
    (`invalidate`, `append_if_present`); a fill does not, so it keeps its own copy, and
    a fill by another process leaves a kept absence here (this process then loads and
    fills once more: the same truth). Records longer than `NEAR_RECORD_BYTES` are not
    kept."""

    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        kind: str,
        ttl: timedelta = RECORD_TTL,
        near: NearRegion[tuple[bytes | None, int]] | None = None,
    ) -> None:
        self._client, self._keys, self._kind = client, keys, kind
        self._scripts = ScriptRunner(client)
        self._ttl_ms = _ms(ttl)
        self._near = near

    async def get_many(self, keys: Sequence[str]) -> list[tuple[bytes | None, int]]:
        if self._near is None or not all(key.isdigit() for key in keys):
            return await self._fetch(keys)
        unkept: dict[int, tuple[bytes | None, int]] = {}  # too long to keep

        async def keepable(ids: Sequence[int]) -> dict[int, tuple[bytes | None, int]]:
            found = {}
            for key, fetched in zip(ids, await self._fetch(ids), strict=True):
                if fetched[0] is not None and len(fetched[0]) > NEAR_RECORD_BYTES:
                    unkept[key] = fetched
                else:
                    found[key] = fetched
            return found

        ids = [int(key) for key in keys]
        found = await read_through(self._near, ids, keepable)
        return [found.get(key) or unkept[key] for key in ids]

    async def _fetch(self, keys: Sequence[str | int]) -> list[tuple[bytes | None, int]]:
        names = [name for key in keys for name in self._keys.record(self._kind, str(key))]
        replies = await _get_all(self._client, names)
        return [(replies[i], int(replies[i + 1] or 0)) for i in range(0, len(replies), 2)]

    async def put(self, key: str, value: bytes, generation: int) -> None:
        args: list[bytes | str | int] = [generation, value, self._ttl_ms, 2 * self._ttl_ms]
        near = self._near if key.isdigit() else None
        # Taken before the script runs: a bump after it (its invalidation may come
        # after the reply) keeps the filled copy out, or drops it when it comes.
        ticket = near.ticket() if near is not None else 0
        stored = await self._scripts.call(PUT_RECORD, self._keys.record(self._kind, key), args)
        if stored and near is not None:
            if len(value) <= NEAR_RECORD_BYTES:
                near.keep({int(key): (value, generation)}, ticket)
            else:
                near.drop(int(key))  # what was kept (an absence) is not the record now

    async def append_if_present(self, key: str, data: bytes) -> None:
        keys = self._keys.record(self._kind, key)
        await self._scripts.call(APPEND_RECORD, keys, [data, 2 * self._ttl_ms])

    async def invalidate(self, keys: Sequence[str]) -> None:
        pipe = self._client.pipeline(transaction=False)
        for key in keys:
            record, generation = self._keys.record(self._kind, key)
            pipe.incr(generation)
            pipe.pexpire(generation, 2 * self._ttl_ms)
            pipe.execute_command("UNLINK", record)
        await pipe.execute()
