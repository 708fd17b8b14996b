"""EraseAccount over fakes: after the store's erasure, every cache that could still
show the account is cleared, the counts it touched are recounted, its files deleted
(first: an object store that is down fails the erasure before it starts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from feedloom.domain.errors import Unavailable
from feedloom.domain.model import Comment, Counts, Post
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import Erasure
from feedloom.write.erase_account import EraseAccount
from tests.unit.fakes import (
    NOW,
    FakeAccountEraser,
    FakeAuthorTimelineStore,
    FakeCounterStore,
    FakeEngagement,
    FakeGraphReader,
    FakeObjectStore,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
    FakeTimelineStore,
    FakeViewCache,
    clock,
    id_generator,
    new_post,
    user,
    views_over,
)

ALICE, BOB, CAROL = 1, 2, 3


@dataclass
class World:
    erase: EraseAccount
    eraser: FakeAccountEraser
    tokens: FakeRecordCache
    viewers: FakeRecordCache
    post_cache: FakeViewCache[Post]
    counters: FakeCounterStore
    timelines: FakeTimelineStore
    objects: FakeObjectStore
    own_post: Post
    bobs_post: Post


def world(objects: FakeObjectStore | None = None) -> World:
    ids = id_generator()
    own_post, bobs_post = new_post(ids, ALICE), new_post(ids, BOB)
    posts, profiles = FakePostStore(own_post, bobs_post), FakeProfileStore(user(ALICE), user(BOB))
    post_cache = FakeViewCache[Post]()
    graph = FakeGraphReader(FakeRelationStore(profiles), profiles)
    tokens, viewers, counters = FakeRecordCache(), FakeRecordCache(), FakeCounterStore()
    engagement = FakeEngagement()  # alice's comment on bob's post is already gone
    engagement.comment_list.append(Comment(9, bobs_post.id, CAROL, "still here", NOW))
    erasure = Erasure([own_post.id], [bobs_post.id], [BOB, CAROL], ["t1"], ["a.png", "a-96.png"])
    eraser = FakeAccountEraser(erasure)
    timelines, objects = FakeTimelineStore(), objects or FakeObjectStore()
    erase = EraseAccount(
        eraser,
        DisplayedCounts(counters, engagement, CounterBuffer(counters)),
        tokens,
        views_over(posts, profiles, post_cache),
        ReaderStates(viewers, graph, FakePreferenceStore(), FakeReposts(), FakeTags()),
        timelines,
        FakeAuthorTimelineStore(),
        objects,
        clock,
    )
    return World(
        erase,
        eraser,
        tokens,
        viewers,
        post_cache,
        counters,
        timelines,
        objects,
        own_post,
        bobs_post,
    )


async def test_erasing_clears_every_cache_that_could_still_show_the_account() -> None:
    w = world()
    w.tokens.records["t1"] = b"1 0"
    w.post_cache.data[w.own_post.id] = w.own_post
    for user_id in (ALICE, BOB, CAROL):
        w.viewers.records[str(user_id)] = b"cached relations"
    await w.timelines.replace(ALICE, [w.bobs_post.id])
    w.objects.objects.update({"a.png": b"x", "a-96.png": b"x", "b.png": b"x"})
    w.counters.counts[w.bobs_post.id] = Counts(likes=5, comments=2)

    await w.erase(ALICE)

    assert w.eraser.erased == [(ALICE, NOW)]
    assert w.tokens.records == {}
    assert w.post_cache.data == {}
    assert not any(key in w.viewers.records for key in ("1", "2", "3"))
    assert await w.timelines.read(ALICE, None, 10) is None
    assert set(w.objects.objects) == {"b.png"}
    assert w.counters.counts[w.bobs_post.id] == Counts(likes=0, comments=1)  # recounted


class UnreachableObjects(FakeObjectStore):
    def __init__(self) -> None:
        super().__init__()
        self.down = True

    async def delete(self, names: Sequence[str]) -> None:
        if self.down:
            raise Unavailable("the object store is unreachable")
        await super().delete(names)


async def test_an_unreachable_object_store_fails_the_erasure_before_it_starts() -> None:
    objects = UnreachableObjects()
    objects.objects.update({"a.png": b"x", "a-96.png": b"x"})
    w = world(objects)

    with pytest.raises(Unavailable):
        await w.erase(ALICE)
    assert w.eraser.erased == []  # nothing erased: the names are still there to delete
    objects.down = False
    await w.erase(ALICE)

    assert objects.objects == {}
