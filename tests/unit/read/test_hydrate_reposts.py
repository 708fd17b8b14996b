"""Hydrating reposts: a page asks for the counts and likes of the posts it shows, a
known repost's original in its place, never the repost's own (always zero)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from feedloom.domain.model import Counts
from feedloom.lookups.cached_views import PostAuthors, Views
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts
from feedloom.lookups.likes import Likes
from feedloom.lookups.reader_state import ReaderStates
from feedloom.metrics import Metrics
from feedloom.read.hydrate import Hydrator, Loaded
from tests.unit.fakes import (
    FakeCounterStore,
    FakeEngagement,
    FakeGraphReader,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
    FakeViewCache,
    FakeViewerSketches,
    clock,
    id_generator,
    new_post,
    user,
)

READER, AUTHOR, REPOSTER = 1, 2, 3


class AskedCounters(FakeCounterStore):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        self.asked += post_ids
        return await super().get_many(post_ids)


async def test_a_known_repost_has_its_originals_counts_asked_for_and_not_its_own() -> None:
    ids, posts = id_generator(), FakePostStore()
    original = new_post(ids, AUTHOR)
    repost = replace(new_post(ids, REPOSTER), text="", repost_of=original.id)
    posts.by_id.update({original.id: original, repost.id: repost})
    profiles = FakeProfileStore(user(READER), user(AUTHOR), user(REPOSTER))
    metrics, engagement, counters = Metrics(), FakeEngagement(), AskedCounters()
    views = Views(FakeViewCache(), FakeViewCache(), posts, profiles, metrics)
    graph = FakeGraphReader(FakeRelationStore(profiles), profiles)
    states = ReaderStates(
        FakeRecordCache(), graph, FakePreferenceStore(), FakeReposts(), FakeTags()
    )
    hydrator = Hydrator(
        views,
        DisplayedCounts(counters, engagement, CounterBuffer(counters)),
        Likes(FakeRecordCache(), engagement, clock),
        FakeViewerSketches(),
        states,
        metrics,
    )
    await hydrator.views(READER, [repost.id], Loaded())  # first sight: learnt
    counters.asked.clear()
    loaded = Loaded()
    found = await hydrator.views(READER, [repost.id], loaded)
    assert found[repost.id].shown == original
    assert counters.asked == [original.id]
    assert original.id in loaded.looked_up


def test_post_facts_name_a_reposts_original_and_its_author() -> None:
    ids = id_generator()
    original = new_post(ids, AUTHOR)
    repost = replace(new_post(ids, REPOSTER), repost_of=original.id)
    facts = PostAuthors()
    assert facts.shown([repost.id, original.id]) == [repost.id, original.id]
    facts.learn([original, repost])
    assert facts.of([repost.id, original.id]) == {repost.id: REPOSTER, original.id: AUTHOR}
    assert facts.shown([repost.id, original.id]) == [original.id]
