"""Fan-out on write, a consumed batch of events at a time.

A batch is handled as one unit: the followers of all its pushed authors come from one
keyset-paged query (a page or a few, not one per post), and all of its timeline inserts
go to the store as runs (a post and a page of its author's followers), one script call
per page of inserts (per node on a cluster). Nothing the event carries is read again:
the author and the relay's pulled/pushed decision travel in it, the post's age is in
its ID. One query per batch asks which posts still exist (a post deleted, or gone,
before its fan-out is done) and which of them reply to whom; one more which public
tags they carry, whose cached lists they join (lookups/tag_timelines.py).

Replies to someone else follow the reply rule (domain/threads.py): they reach only
the followers who also follow the account replied to. Those followers come from one
more query for the whole batch (only when it holds such replies), never one per
follower.

Idempotent: a repeated delivery inserts IDs the timelines already hold, which changes
nothing. Followers without a timeline (inactive, never built) are skipped inside the
store; their timelines are rebuilt when they return. Pulled authors are not fanned out
at all: readers merge their author timeline.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeAlias

from feedloom.domain.ids import created_at_of
from feedloom.domain.model import (
    AuthorPushed,
    PostDeleted,
    PostEdited,
    PostPublished,
    UserProfile,
)
from feedloom.domain.threads import reply_recipients
from feedloom.domain.timeline import PostRun, in_chunks
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.cached_views import Views
from feedloom.lookups.notices import Notices
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.metrics import Metrics, author_size_bucket
from feedloom.ports import (
    AuthorTimelineStore,
    Clock,
    Delivery,
    FollowerLister,
    Lane,
    PostStore,
    ProfileStore,
    TimelineStore,
)

Reply: TypeAlias = tuple[int, int, int]  # (post, its author, the author replied to)


class FanOut:
    def __init__(
        self,
        posts: PostStore,
        profiles: ProfileStore,
        followers: FollowerLister,
        timelines: TimelineStore,
        author_timelines: AuthorTimelineStore,
        recent: AuthorTimelines,
        tagged: TagTimelines,
        views: Views,
        metrics: Metrics,
        clock: Clock,
        page_sizes: Mapping[Lane, int],
    ) -> None:
        self._posts, self._profiles, self._followers = posts, profiles, followers
        self._timelines, self._author_timelines, self._recent = timelines, author_timelines, recent
        self._tagged = tagged
        self._views, self._metrics, self._clock = views, metrics, clock
        # Inserts per chunk, by lane. The bulk lane's are small: between its chunks,
        # Redis and this process' loop serve the ordinary posts (docs/BENCHMARKS.md).
        self._page_sizes = page_sizes
        self.notices: Notices | None = None  # new-post notices for open streams

    async def handle(self, deliveries: Sequence[Delivery]) -> None:
        """One consumed batch (all of one lane), in this order."""
        if not deliveries:
            return
        events = [delivery.event for delivery in deliveries]
        lane = deliveries[0].lane
        published, replying = await self._live([e for e in events if isinstance(e, PostPublished)])
        published = await self._decided(published)
        # Independent: against Redis, the authors' lists are written while the
        # followers are read from the store.
        _, reached, _ = await asyncio.gather(
            self._to_author_timelines(published),
            self._to_followers([post for post in published if not post.pulled], replying, lane),
            self._tagged.published([post.post_id for post in published]),
        )
        await self._back_fill([e for e in events if isinstance(e, AuthorPushed)], lane)
        await self._purge([e for e in events if isinstance(e, PostDeleted)])
        await self._changed([e for e in events if isinstance(e, PostDeleted | PostEdited)])
        self._observe(lane, published, reached)

    async def _live(
        self, published: list[PostPublished]
    ) -> tuple[list[PostPublished], dict[int, int]]:
        """The events whose posts still exist, and which of those reply to someone else
        (post -> the author replied to)."""
        if not published:
            return published, {}
        live = await self._posts.live_posts([event.post_id for event in published])
        kept = [event for event in published if event.post_id in live]
        replying = {
            e.post_id: other
            for e in kept
            if (other := live[e.post_id]) is not None and other != e.author_id
        }
        return kept, replying

    async def _decided(self, published: list[PostPublished]) -> list[PostPublished]:
        """Events the relay decided carry `pulled`; older ones get it looked up."""
        undecided = list({e.author_id for e in published if e.pulled is None})
        if not undecided:
            return published
        profiles = await self._profiles.profiles(undecided)
        return [
            e if e.pulled is not None else dataclasses.replace(e, pulled=_pulled(profiles, e))
            for e in published
        ]

    async def _to_author_timelines(self, published: list[PostPublished]) -> None:
        """Each post into its author timeline and its author's own home timeline."""
        if not published:
            return
        await self._author_timelines.push_many([(p.author_id, p.post_id) for p in published])
        own = [(post.post_id, (post.author_id,)) for post in published]
        await self._timelines.insert_many(own)
        if self.notices is not None:
            for post in published:
                if post.pulled:
                    await self.notices.pulled_author_posted(post.author_id, post.post_id)
            await self.notices.reached_many(own)  # each author's own feed, one message

    async def _to_followers(
        self, pushed: list[PostPublished], replying: Mapping[int, int], lane: Lane
    ) -> Counter[int]:
        """Every follower of every pushed author, from one query (a reply's, narrowed by
        the reply rule); returns how many followers each post has (for the lag's
        author-size bucket)."""
        by_author: dict[int, list[int]] = defaultdict(list)
        replies: list[Reply] = []
        for post in pushed:
            if post.post_id in replying:
                replies.append((post.post_id, post.author_id, replying[post.post_id]))
            else:
                by_author[post.author_id].append(post.post_id)
        if not by_author and not replies:
            return Counter()
        authors = {*by_author, *(author for _, author, _ in replies)}
        lists = await self._followers.follower_lists(list(authors))
        await self._insert(_runs(by_author, lists, self._page_sizes[lane]))
        reached: Counter[int] = Counter()
        for author, posts in by_author.items():
            reached.update(dict.fromkeys(posts, len(lists.get(author, ()))))
        if replies:
            runs = await self._reply_runs(replies, lists)
            await self._insert(in_chunks(iter(runs), self._page_sizes[lane]))
            reached.update({post: len(followers) for post, followers in runs})
        return reached

    async def _reply_runs(
        self, replies: list[Reply], lists: Mapping[int, list[int]]
    ) -> list[PostRun]:
        """Each reply with the followers the reply rule lets it reach: the author's
        followers who also follow the account replied to (one query for the batch)."""
        pairs = [(author, other) for _, author, other in replies]
        also = await self._followers.followers_also_following(pairs)
        return [
            (post, reply_recipients(lists.get(author, []), author, other, also.get(pair, set())))
            for post, author, other in replies
            for pair in [(author, other)]
        ]

    async def _back_fill(self, pushed_again: list[AuthorPushed], lane: Lane) -> None:
        """An author pushed again: their recent posts (which fan-out skipped while they
        were pulled) go into their followers' timelines, as a fan-out would have."""
        for event in pushed_again:
            recent = {event.author_id: await self._recent.recent_of(event.author_id)}
            lists = await self._followers.follower_lists([event.author_id])
            await self._insert(_runs(recent, lists, self._page_sizes[lane]))

    async def _insert(self, chunks: Iterator[list[PostRun]]) -> None:
        """A chunk of runs at a time: a big account's fan-out never holds all its
        inserts in memory at once. (The in-process store yields to other lanes within
        a chunk: memory/timeline_store.py.)"""
        for runs in chunks:
            self._metrics.fanout_timeline_writes.inc(await self._timelines.insert_many(runs))
            await self._notify(runs)

    async def _purge(self, deleted: list[PostDeleted]) -> None:
        """Second step of a delete: the tombstone already hides the post; now drop it
        from the caches. Home timelines keep the ID and are filtered at read time, then
        trimmed as newer posts arrive: touching millions of timelines is not worth it."""
        for event in deleted:
            await self._author_timelines.remove(event.author_id, event.post_id)
        if deleted:
            await self._views.forget_posts([event.post_id for event in deleted])

    async def _changed(self, changed: list[PostDeleted | PostEdited]) -> None:
        """A deleted (after its purge) or edited post: the open streams of the readers
        whose feeds may hold it are told, as of a new post (Mastodon's `delete` and
        `status.update`): a pushed author's followers one by one, a pulled author's
        through the author's topic."""
        if not changed or self.notices is None:
            return
        authors = list({event.author_id for event in changed})
        profiles = await self._profiles.profiles(authors)
        pulled = {a for a in authors if (p := profiles.get(a)) is not None and p.pulled}
        lists = await self._followers.follower_lists([a for a in authors if a not in pulled])
        for event in changed:
            followers = lists.get(event.author_id, [])
            await self.notices.changed(
                event.post_id, event.author_id, followers, event.author_id in pulled
            )

    async def _notify(self, runs: list[PostRun]) -> None:
        if self.notices is not None:
            await self.notices.reached_many(runs)

    def _observe(self, lane: Lane, published: list[PostPublished], reached: Counter[int]) -> None:
        now = self._clock()
        for post in published:
            lag = max((now - created_at_of(post.post_id)).total_seconds(), 0.0)
            bucket = author_size_bucket(reached[post.post_id])
            self._metrics.fanout_lag.labels(lane, bucket).observe(lag)


def _runs(
    posts_of: dict[int, list[int]], followers_of: dict[int, list[int]], size: int
) -> Iterator[list[PostRun]]:
    """Each author's posts with their followers, at most `size` inserts a chunk."""
    every = (
        (post, followers_of.get(author, [])) for author, posts in posts_of.items() for post in posts
    )
    return in_chunks(every, size)


def _pulled(profiles: dict[int, UserProfile], event: PostPublished) -> bool:
    profile = profiles.get(event.author_id)
    return profile is not None and profile.pulled
