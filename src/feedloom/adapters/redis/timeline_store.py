"""Home and author timelines in Redis: lists of packed post IDs, kept by Lua (lua.py).

Same contract as the in-process adapter: newest first, capped, duplicate-free under
late and repeated inserts; a missing timeline reads as None and an empty rebuilt one
still exists; home timelines expire after `ttl` unless replaced or touched. A fan-out
batch is one script call (one per slot on a cluster): followers without a timeline are
skipped inside Redis, never with a round trip each.

Measured on a full 500-ID timeline (docs/REDIS.md): about 5.3 KB by `MEMORY USAGE`
against 50-59 KB for a default sorted set. The price: an insert that is not the newest
(a late event) walks back from the tail (a binary search of LINDEX calls when it is
deeper than a few entries), and a merge rewrites the list; both are rarer than a new
post's insert, which is one RPUSH at the tail.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from operator import itemgetter
from typing import cast

from cachetools import FIFOCache

from feedloom.adapters.redis import lua
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import Arg, LuaScript, RedisClient, ScriptRunner
from feedloom.domain.timeline import END_OF_FEED, PostRun, distinct_runs, split_end

SLACK = 10  # dead entries a full list may carry before one trim (lua.py explains)
EMPTY = bytes(8)
INSERT, INSERT_GROUPS, MERGE, REMOVE, REPLACE, HOLD, REBUILD = (
    LuaScript(source)
    for source in (
        lua.INSERT,
        lua.INSERT_GROUPS,
        lua.MERGE,
        lua.REMOVE,
        lua.REPLACE,
        lua.HOLD,
        lua.REBUILD,
    )
)
INSERT_GROUPS_ON_NODE = LuaScript(lua.INSERT_GROUPS_ON_NODE)
INSERTS_PER_CALL = 4000  # one script call holds Redis for a few ms at most
KNOWN_NAMES = 100_000  # timeline key names kept unless told otherwise; the oldest go first


def pack_id(post_id: int) -> bytes:
    return post_id.to_bytes(8, "big")


def oldest_first(post_ids: Sequence[int], cap: int) -> list[bytes]:
    """The newest `cap` IDs, packed, in the list's order: oldest first."""
    return [pack_id(post_id) for post_id in sorted(set(post_ids))[-cap:]]


def newest_first(raw: Sequence[bytes]) -> list[int]:
    return [int.from_bytes(item, "big") for item in reversed(raw) if item != EMPTY]


def by_owner(runs: Sequence[PostRun]) -> dict[int, list[bytes]]:
    """The runs' packed IDs per owner, ascending and distinct."""
    groups: dict[int, list[bytes]] = {}
    for post_id, owner_ids in sorted(distinct_runs(runs), key=itemgetter(0)):
        packed = pack_id(post_id)
        for owner in owner_ids:
            group = groups.get(owner)
            if group is None:
                groups[owner] = [packed]
            else:
                group.append(packed)
    return groups


def _calls(
    groups: dict[int, list[bytes]], size: int
) -> Iterator[tuple[list[int], list[list[Arg]]]]:
    """Owners and their argument groups ([count, *IDs]), about `size` inserts a call."""
    owners: list[int] = []
    args: list[list[Arg]] = []
    inserts = 0
    for owner, group in groups.items():
        owners.append(owner)
        args.append([len(group), *group])
        inserts += len(group)
        if inserts >= size:
            yield owners, args
            owners, args, inserts = [], [], 0
    if owners:
        yield owners, args


class KnownNames:
    """Timeline key names, remembered (bounded): a fan-out names the same active
    readers batch after batch, and formatting a name costs ~25x a dict lookup (1.6 M
    names per run of the peers' bench, docs/BENCHMARKS.md)."""

    def __init__(self, name: Callable[[int], str], limit: int = KNOWN_NAMES) -> None:
        self._name = name
        self._names: FIFOCache[int, str] = FIFOCache(maxsize=limit)

    def __call__(self, owner_ids: Sequence[int]) -> list[str]:
        try:
            return list(map(self._names.__getitem__, owner_ids))
        except KeyError:
            return [self._named(owner) for owner in owner_ids]

    def _named(self, owner_id: int) -> str:
        name = self._names.get(owner_id)
        if name is None:
            name = self._names[owner_id] = self._name(owner_id)
        return name


class _IdLists:
    """What both timeline kinds do to one list: read, replace, insert, merge, remove."""

    def __init__(
        self, client: RedisClient, scripts: ScriptRunner, cap: int, ttl: timedelta | None
    ) -> None:
        self.client = client
        self.scripts = scripts
        self.cap = cap
        self.ttl_ms = 0 if ttl is None else max(1, int(ttl.total_seconds() * 1000))

    async def read(self, key: str, before: int | None, limit: int) -> list[int] | None:
        # Only the newest `cap` entries are live; without `before`, only the page.
        count = self.cap if before is not None else max(1, min(limit, self.cap))
        raw = cast(list[bytes], await self.client.lrange(key, -count, -1))
        if not raw:
            return None
        ids = newest_first(raw)
        if before is not None:
            ids = [post_id for post_id in ids if post_id < before]
        return ids[: max(0, limit)]

    async def replace(self, key: str, post_ids: Sequence[int]) -> None:
        await self.scripts.call(REPLACE, [key], [self.ttl_ms, *oldest_first(post_ids, self.cap)])

    async def insert(self, keys: Sequence[str], post_id: int) -> int:
        results = await self.scripts.call_per_slot(
            INSERT, keys, (self.cap, SLACK, pack_id(post_id))
        )
        return sum(int(result) for result in results)

    async def insert_runs(self, runs: Sequence[PostRun], names: KnownNames) -> int:
        """Each run's post into its owners' lists, grouped by list (`by_owner`): one
        script call per `INSERTS_PER_CALL` inserts, on a cluster one per node
        (scripts.py `call_per_node`), and each list touched once per call however many
        of the runs' posts it gets. The calls go out together, in one write: a
        concurrent batch's calls then land before or after them, not between, so its
        IDs are seldom late (2.6x fewer late groups on the peers' workload)."""
        calls = [
            self.scripts.call_per_node(
                INSERT_GROUPS, INSERT_GROUPS_ON_NODE, names(owners), (self.cap, SLACK), groups
            )
            for owners, groups in _calls(by_owner(runs), INSERTS_PER_CALL)
        ]
        results = await asyncio.gather(*calls)
        return sum(int(result) for node_results in results for result in node_results)

    async def hold(self, key: str) -> None:
        await self.scripts.call(HOLD, [key], [self.ttl_ms])

    async def rebuild(self, key: str, post_ids: Sequence[int]) -> None:
        args: list[Arg] = [self.ttl_ms, self.cap, pack_id(END_OF_FEED)]
        args += oldest_first(post_ids, self.cap)
        await self.scripts.call(REBUILD, [key], args)

    async def merge(self, key: str, post_ids: Sequence[int]) -> None:
        if post_ids:
            await self.scripts.call(MERGE, [key], [self.cap, *oldest_first(post_ids, self.cap)])

    async def remove(self, key: str, post_ids: Sequence[int]) -> None:
        if post_ids:
            await self.scripts.call(REMOVE, [key], [self.cap, *map(pack_id, set(post_ids))])


class RedisTimelineStore:
    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        length: int = 500,
        ttl: timedelta = timedelta(days=30),
        names: int = KNOWN_NAMES,
    ) -> None:
        self._keys = keys
        self._names = KnownNames(keys.timeline, names)
        self._lists = _IdLists(client, ScriptRunner(client), length, ttl)

    async def read(self, user_id: int, before: int | None, limit: int) -> list[int] | None:
        page = await self.read_page(user_id, before, limit)
        return None if page is None else page[0]

    async def read_page(
        self, user_id: int, before: int | None, limit: int
    ) -> tuple[list[int], bool] | None:
        ids = await self._lists.read(self._keys.timeline(user_id), before, limit)
        return None if ids is None else split_end(ids)

    async def replace(self, user_id: int, post_ids: Sequence[int], complete: bool = False) -> None:
        # Kept as the oldest entry: trimming at the cap drops it first (domain/timeline.py).
        ids = [*post_ids, END_OF_FEED] if complete else post_ids
        await self._lists.replace(self._keys.timeline(user_id), ids)

    async def mark_incomplete(self, user_id: int) -> None:
        await self.remove(user_id, [END_OF_FEED])

    async def insert_if_present(self, user_ids: Sequence[int], post_id: int) -> int:
        return await self._lists.insert([self._keys.timeline(u) for u in user_ids], post_id)

    async def insert_many(self, runs: Sequence[PostRun]) -> int:
        return await self._lists.insert_runs(runs, self._names)

    async def hold(self, user_id: int) -> None:
        await self._lists.hold(self._keys.timeline(user_id))

    async def rebuild(self, user_id: int, post_ids: Sequence[int], complete: bool) -> None:
        ids = [*post_ids, END_OF_FEED] if complete else post_ids
        await self._lists.rebuild(self._keys.timeline(user_id), ids)

    async def merge_if_present(self, user_id: int, post_ids: Sequence[int]) -> None:
        await self._lists.merge(self._keys.timeline(user_id), post_ids)

    async def remove(self, user_id: int, post_ids: Sequence[int]) -> None:
        await self._lists.remove(self._keys.timeline(user_id), post_ids)

    async def drop(self, user_id: int) -> None:
        await self._lists.client.unlink(self._keys.timeline(user_id))

    async def touch(self, user_id: int) -> None:
        await self._lists.client.pexpire(self._keys.timeline(user_id), self._lists.ttl_ms)

    async def expires_in(self, user_id: int) -> float | None:
        ttl_ms = int(await self._lists.client.pttl(self._keys.timeline(user_id)))
        return ttl_ms / 1000 if ttl_ms >= 0 else None  # -2: no key, -1: no expiry


class RedisAuthorTimelineStore:
    """Author timelines expire too (`ttl`, None for never): an author nobody reads
    costs nothing, and the next reader rebuilds the list from the durable store.

    The same lists keyed by tag (`name=keys.tag_timeline`) hold each tag's recent
    public posts, for readers who follow the tag (lookups/tag_timelines.py)."""

    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        length: int = 200,
        ttl: timedelta | None = timedelta(days=30),
        names: int = KNOWN_NAMES,
        name: Callable[[int], str] | None = None,
    ) -> None:
        self._key = name if name is not None else keys.author_timeline
        self._names = KnownNames(self._key, names)
        self._lists = _IdLists(client, ScriptRunner(client), length, ttl)

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        pipe = self._lists.client.pipeline(transaction=False)
        for author_id in author_ids:
            pipe.lrange(self._key(author_id), -self._lists.cap, -1)
        found: dict[int, list[int]] = {}
        for author_id, raw in zip(author_ids, await pipe.execute(), strict=True):
            if raw:
                found[author_id] = newest_first(raw)
        return found

    async def replace(self, author_id: int, post_ids: Sequence[int]) -> None:
        await self._lists.replace(self._key(author_id), post_ids)

    async def push_if_present(self, author_id: int, post_id: int) -> None:
        await self._lists.insert([self._key(author_id)], post_id)

    async def push_many(self, pairs: Sequence[tuple[int, int]]) -> None:
        await self._lists.insert_runs([(post, (author,)) for author, post in pairs], self._names)

    async def remove(self, author_id: int, post_id: int) -> None:
        await self._lists.remove(self._key(author_id), [post_id])

    async def drop(self, author_id: int) -> None:
        await self._lists.client.unlink(self._key(author_id))
