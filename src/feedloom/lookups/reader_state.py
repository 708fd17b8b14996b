"""The reader's relations and feed order, served from the cache on a warm read.

A feed read needs who the reader follows (and which of those are pulled), who is
blocked either way, who is muted, and the feed order they chose. All of it lives in one
cached record per reader, loaded from the durable store on a miss and invalidated by
every write that changes it (relations.py, settings) after its commit. Which accounts
are pulled changes rarely and for many readers at once, so a record also keeps the
"fan-out modes" generation it was built under: a flip of any account bumps it, and
each record built before is rebuilt on its next read.

The record also carries whose reposts the reader turned off (with the follow) and
the originals the reader reposts (the latest `REPOSTED`; `reposted_by_me` on any page
comes from it, and from the store only for a reader with more): reposting and
unreposting invalidate it like a relation change. So do the tags the reader follows
(the newest `FOLLOWED_TAGS`), which a home feed pulls at read time (read/candidates.py).

It carries the reader's muted words (hidden in every feed and thread) and the members
of their exclusive lists (who leave the home feed): changing either invalidates it.

A record begins with its shape's tag: one of a shape this code does not know (written
by another version during a rolling deploy) is a miss, rebuilt from the store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import orjson
from cachetools import FIFOCache

from feedloom.domain.feed_definitions import word_pattern
from feedloom.domain.model import FeedOrder
from feedloom.ports import FollowedTags, GraphReader, PreferenceStore, RecordCache, RepostStore
from feedloom.ports.feeds import ReaderChoices

# The generation of record 0 (no user has ID 0) counts fan-out mode flips: a key like
# every reader's, so a cache that keeps records near keeps it too.
MODES = "0"
SHAPE = "r5"  # a new field or order: a new tag (r5: followed tags)
REPOSTED = 1_000  # originals a record lists as reposted by its reader
FOLLOWED_TAGS = 100  # followed tags a record holds (and a home feed pulls), newest first
DECODED = 10_000  # readers whose last record is kept decoded beside its bytes


@dataclass(frozen=True, slots=True)
class ReaderRelations:
    user_id: int
    following: frozenset[int]
    pulled: tuple[int, ...]  # the followees that are pulled, ascending
    blocked: frozenset[int]  # blocked by the reader or blocking the reader
    muted: frozenset[int]
    feed_order: FeedOrder | None  # the reader's own choice, if any
    reposts_off: frozenset[int] = frozenset()  # followees whose reposts are turned off
    reposted: frozenset[int] = frozenset()  # originals the reader reposts (the latest)
    reposted_all: bool = True  # `reposted` is all of them
    tags: tuple[tuple[int, str], ...] = ()  # followed tags (ID, name), newest follow first
    muted_words: tuple[str, ...] = ()
    left_home: frozenset[int] = frozenset()  # members of the reader's exclusive lists
    muted_pattern: re.Pattern[str] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Compiled once per decoded record (`ReaderStates._decode` keeps it).
        object.__setattr__(self, "muted_pattern", word_pattern(self.muted_words))


class NoChoices:
    """No lists or muted words (processes and tests without them)."""

    async def muted_words(self, user_id: int) -> list[str]:
        return []

    async def exclusive_members(self, owner_id: int) -> list[int]:
        return []


class ReaderStates:
    def __init__(
        self,
        cache: RecordCache,
        graph: GraphReader,
        preferences: PreferenceStore,
        reposts: RepostStore,
        tags: FollowedTags,
        decoded: int = DECODED,
        choices: ReaderChoices | None = None,
    ) -> None:
        self._cache, self._graph, self._preferences = cache, graph, preferences
        self._reposts, self._tags = reposts, tags
        self._choices: ReaderChoices = choices if choices is not None else NoChoices()
        self._decoded: FIFOCache[int, tuple[bytes, ReaderRelations | None, int]]
        self._decoded = FIFOCache(maxsize=decoded)

    async def relations(self, user_id: int) -> ReaderRelations:
        key = str(user_id)
        (record, generation), (_, modes) = await self._cache.get_many([key, MODES])
        if record is not None:
            relations, built_under = self._decode(user_id, record)
            if relations is not None and built_under == modes:
                return relations
        fresh = await self._load(user_id)
        await self._cache.put(key, _encode(fresh, modes), generation)
        return fresh

    async def reposted_among(self, user_id: int, original_ids: Sequence[int]) -> set[int]:
        """Which of these originals the user reposts."""
        if not original_ids:
            return set()
        relations = await self.relations(user_id)
        if relations.reposted_all:
            return {post_id for post_id in original_ids if post_id in relations.reposted}
        return await self._reposts.reposted_among(user_id, original_ids)

    async def changed(self, user_ids: Sequence[int]) -> None:
        """After a commit that changed these readers' relations or feed order."""
        await self._cache.invalidate([str(user_id) for user_id in user_ids])

    async def modes_changed(self) -> None:
        """After an account flipped between pushed and pulled."""
        await self._cache.invalidate([MODES])

    def _decode(self, user_id: int, record: bytes) -> tuple[ReaderRelations | None, int]:
        """A record decodes to the same relations as long as its bytes are the same: a
        reader's next read compares bytes instead of building its sets again."""
        last = self._decoded.get(user_id)
        if last is not None and last[0] == record:
            return last[1], last[2]
        relations, modes = _decode(user_id, record)
        self._decoded[user_id] = (record, relations, modes)
        return relations, modes

    async def _load(self, user_id: int) -> ReaderRelations:
        own = await self._graph.own_relations(user_id)
        reposted = await self._reposts.reposted(user_id, REPOSTED + 1)
        return ReaderRelations(
            user_id=user_id,
            following=frozenset(f.user_id for f in own.followees),
            pulled=tuple(sorted(f.user_id for f in own.followees if f.pulled)),
            blocked=frozenset(own.blocked),
            muted=frozenset(own.muted),
            feed_order=await self._preferences.feed_order(user_id),
            reposts_off=frozenset(f.user_id for f in own.followees if not f.reposts),
            reposted=frozenset(reposted[:REPOSTED]),
            reposted_all=len(reposted) <= REPOSTED,
            muted_words=tuple(await self._choices.muted_words(user_id)),
            left_home=frozenset(await self._choices.exclusive_members(user_id)),
            tags=tuple((t.id, t.name) for t in await self._tags.followed(user_id, FOLLOWED_TAGS)),
        )


def _encode(relations: ReaderRelations, modes: int) -> bytes:
    order = relations.feed_order.value if relations.feed_order is not None else None
    return orjson.dumps(
        [
            SHAPE,
            list(relations.following),
            relations.pulled,
            list(relations.blocked),
            list(relations.muted),
            order,
            modes,
            list(relations.reposts_off),
            list(relations.reposted),
            relations.reposted_all,
            relations.muted_words,
            list(relations.left_home),
            [list(tag) for tag in relations.tags],
        ]
    )


def _decode(user_id: int, data: bytes) -> tuple[ReaderRelations | None, int]:
    """The relations, and the mode generation they were built under; None for a
    record of a shape this code does not know."""
    fields = orjson.loads(data)
    if not isinstance(fields, list) or not fields or fields[0] != SHAPE:
        return None, -1
    _, following, pulled, blocked, muted, order, modes, *reposting = fields
    reposts_off, reposted, reposted_all, words, left_home, tags = reposting
    relations = ReaderRelations(
        user_id=user_id,
        following=frozenset(following),
        pulled=tuple(pulled),
        blocked=frozenset(blocked),
        muted=frozenset(muted),
        feed_order=FeedOrder(order) if order is not None else None,
        reposts_off=frozenset(reposts_off),
        reposted=frozenset(reposted),
        reposted_all=reposted_all,
        muted_words=tuple(words),
        left_home=frozenset(left_home),
        tags=tuple((tag_id, name) for tag_id, name in tags),
    )
    return relations, modes
