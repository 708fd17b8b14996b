"""The set of ports one process works with. bootstrap.py builds it; use cases take it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.metrics import Metrics
from feedloom.ports import (
    Accounts,
    AffinityStore,
    AuthorTimelineStore,
    BulkImporter,
    Clock,
    CounterStore,
    Engagement,
    EventQueue,
    FeedSessionStore,
    Outbox,
    Posts,
    Ranker,
    RateLimiter,
    SocialGraph,
    TimelineStore,
    ViewCache,
)
from feedloom.ranking import rank
from feedloom.read.feature_log import FeatureLog
from feedloom.settings import Settings
from feedloom.write.counting import CounterBuffer


@dataclass
class Backend:
    settings: Settings
    clock: Clock
    ids: IdGenerator
    metrics: Metrics
    policy: FanoutPolicy
    accounts: Accounts
    posts: Posts
    graph: SocialGraph
    engagement: Engagement
    outbox: Outbox
    bulk: BulkImporter
    affinities: AffinityStore
    timelines: TimelineStore
    author_timelines: AuthorTimelineStore
    post_cache: ViewCache
    user_cache: ViewCache
    counters: CounterStore
    sessions: FeedSessionStore
    rate_limiter: RateLimiter
    queue: EventQueue
    counter_buffer: CounterBuffer = field(default_factory=CounterBuffer)
    # Injectable so tests (and experiments) can swap the scoring stage of the ranked feed.
    ranker: Ranker = rank
    feature_log: FeatureLog | None = None
    # Recently seen users, so activity is written at most once per interval per user.
    activity_seen: dict[int, float] = field(default_factory=dict)
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    async def close(self) -> None:
        for close in reversed(self.closers):
            await close()
