"""The chronological home feed through HomeFeed.page: pushed, pulled and own recent posts
merged newest first; muted, blocked, unfollowed and deleted posts dropped at read time;
pages kept full by over-fetching; a keyset cursor that neither repeats nor skips."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from datetime import timedelta

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import FeedOrder, Post
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts
from feedloom.lookups.likes import Likes
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.metrics import Metrics
from feedloom.ranking import Weights, rank
from feedloom.read.candidates import Candidates
from feedloom.read.chronological import ChronologicalFeed
from feedloom.read.feed_order import FeedOrders
from feedloom.read.feed_page import FeedPage
from feedloom.read.home_feed import HomeFeed
from feedloom.read.hydrate import Hydrator
from feedloom.read.ranked.candidates import Features
from feedloom.read.ranked.feed import RankedConfig, RankedFeed
from feedloom.read.ranked.out_of_network import OutOfNetwork, OutOfNetworkConfig
from feedloom.read.ranked.ranker import BudgetedRanker
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Readers
from tests.unit.fakes import (
    FakeAffinityStore,
    FakeAuthorTimelineStore,
    FakeCounterStore,
    FakeEngagement,
    FakeFeedSessionStore,
    FakeGraphReader,
    FakePostArchive,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
    FakeTimelineStore,
    FakeTrendingStore,
    FakeViewCache,
    FakeViewerSketches,
    clock,
    id_generator,
    new_post,
    user,
)

READER, FRIEND, CELEB, MUTED, BLOCKER, FORMER = 1, 2, 3, 4, 5, 6
POLICY = FanoutPolicy(pull_above=10, push_below=8, bulk_above=5)


@dataclass
class World:
    ids: IdGenerator
    posts: FakePostStore
    timelines: FakeTimelineStore
    home: HomeFeed

    def post(self, author_id: int, pushed: bool = True) -> Post:
        """A post by `author_id`, fanned out to the reader's timeline if `pushed`."""
        post = new_post(self.ids, author_id)
        self.posts.by_id[post.id] = post
        if pushed:
            self.timelines.ids[READER].add(post.id)
        return post

    async def page(self, limit: int, cursor: str | None = None) -> FeedPage:
        return await self.home.page(READER, limit, cursor, StageTimer())


def world() -> World:
    """The reader follows FRIEND, CELEB (pulled) and MUTED (muted); BLOCKER blocked the
    reader; the reader unfollowed FORMER, whose old posts are still in the timeline."""
    profiles = FakeProfileStore(
        *(user(i) for i in [READER, FRIEND, MUTED, BLOCKER, FORMER]), user(CELEB, 50, True)
    )
    relations = FakeRelationStore(profiles)
    relations.follows |= {(READER, FRIEND), (READER, CELEB), (READER, MUTED)}
    relations.mutes.add((READER, MUTED))
    relations.blocks.add((BLOCKER, READER))
    posts, timelines = FakePostStore(), FakeTimelineStore()
    timelines.ids[READER] = set()
    home = home_feed(posts, profiles, FakeGraphReader(relations, profiles), timelines)
    return World(id_generator(), posts, timelines, home)


def home_feed(
    posts: FakePostStore,
    profiles: FakeProfileStore,
    graph: FakeGraphReader,
    timelines: FakeTimelineStore,
) -> HomeFeed:
    """Wired as bootstrap/services.py wires it, over fakes."""
    metrics, archive, engagement = Metrics(), FakePostArchive(posts), FakeEngagement()
    preferences = FakePreferenceStore()
    views = Views(FakeViewCache(), FakeViewCache(), posts, profiles, metrics)
    authors = AuthorTimelines(FakeAuthorTimelineStore(), archive, 50)
    rebuilder = TimelineRebuilder(timelines, authors, metrics, 100)
    own_window = timedelta(minutes=10)
    candidates = Candidates(
        timelines, rebuilder, authors, archive, FakeTags(), metrics, clock, own_window, 20
    )
    counters = FakeCounterStore()
    counts = DisplayedCounts(counters, engagement, CounterBuffer(counters))
    likes = Likes(FakeRecordCache(), engagement, clock)
    states = ReaderStates(FakeRecordCache(), graph, preferences, FakeReposts(), FakeTags())
    hydrator = Hydrator(views, counts, likes, FakeViewerSketches(), states, metrics)
    ranked = RankedFeed(
        candidates,
        views,
        Features(counts, engagement, FakeAffinityStore(), 7.0),
        BudgetedRanker(rank, Weights(), 1.0, metrics),
        FakeFeedSessionStore(),
        hydrator,
        metrics,
        clock,
        RankedConfig(rank_candidates=100, session_ttl_s=300, pin_own=timedelta(minutes=5)),
        feature_log=None,
        outside=OutOfNetwork(likes, FakeTrendingStore(), views, OutOfNetworkConfig(0.1, 2, 50, 10)),
    )
    return HomeFeed(
        FeedOrders(preferences, states, FeedOrder.CHRONOLOGICAL),
        Readers(states, POLICY),
        ChronologicalFeed(candidates, hydrator, metrics),
        ranked,
        metrics,
        default_limit=20,
    )


def served(page: FeedPage) -> list[int]:
    return [item.post.id for item in page.items]


async def test_a_page_merges_pushed_pulled_and_own_recent_posts_newest_first() -> None:
    w = world()
    pushed, pulled, own = w.post(FRIEND), w.post(CELEB, pushed=False), w.post(READER, False)
    page = await w.page(10)
    assert [(item.post.id, item.source) for item in page.items] == [
        (own.id, "own"),
        (pulled.id, "pulled"),
        (pushed.id, "pushed"),
    ]
    assert page.order is FeedOrder.CHRONOLOGICAL and page.next_cursor is None


async def test_muted_blocked_unfollowed_and_deleted_posts_are_dropped_at_read_time() -> None:
    w = world()
    kept = w.post(FRIEND)
    deleted = w.post(FRIEND)
    w.posts.by_id[deleted.id] = replace(deleted, deleted=True)
    for author in (MUTED, BLOCKER, FORMER):
        w.post(author)
    page = await w.page(10)
    assert served(page) == [kept.id]
    assert page.filtered == Counter(muted=1, blocked=1, unfollowed=1, deleted=1)


async def test_a_page_over_fetches_past_filtered_posts_to_stay_full() -> None:
    w = world()
    friends = [w.post(FRIEND) for _ in range(3)]
    for _ in range(20):  # newer than all of the friend's posts, and all muted
        w.post(MUTED)
    page = await w.page(2)
    assert served(page) == [friends[2].id, friends[1].id]
    assert page.filtered["muted"] == 20


async def test_the_keyset_cursor_continues_with_no_repeats_and_no_skips() -> None:
    w = world()
    older = [w.post(FRIEND) for _ in range(7)]
    first = await w.page(3)
    newer = w.post(FRIEND)  # published between two pages: not shifted into the next one
    second = await w.page(3, first.next_cursor)
    last = await w.page(3, second.next_cursor)
    assert served(first) + served(second) + served(last) == [p.id for p in reversed(older)]
    assert newer.id not in served(second) + served(last)
    assert last.next_cursor is None


async def test_a_reader_without_a_timeline_gets_one_rebuilt_from_followees() -> None:
    w = world()
    post = w.post(FRIEND)
    del w.timelines.ids[READER]
    page = await w.page(10)
    assert [(item.post.id, item.source) for item in page.items] == [(post.id, "rebuilt")]
    assert w.timelines.ids[READER] == {post.id}
