"""Fan-out on write: insert a new post's ID into its followers' timelines.

Workers receive events carrying IDs only and are idempotent: a post that is gone
means the work is done, and a repeated delivery inserts an ID the timeline already
holds, which changes nothing. Followers without a timeline (inactive, or never built)
are skipped inside the store; their timelines are rebuilt when they return. Pulled
authors are not fanned out at all: readers merge their author timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.model import Post, PostDeleted, PostPublished, UserProfile
from feedloom.lookups.cached_views import Views
from feedloom.lookups.notices import Notices
from feedloom.metrics import Metrics
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


class FanOut:
    def __init__(
        self,
        posts: PostStore,
        profiles: ProfileStore,
        followers: FollowerLister,
        timelines: TimelineStore,
        author_timelines: AuthorTimelineStore,
        views: Views,
        metrics: Metrics,
        clock: Clock,
        batch_size: int,
    ) -> None:
        self._posts, self._profiles, self._followers = posts, profiles, followers
        self._timelines, self._author_timelines = timelines, author_timelines
        self._views, self._metrics, self._clock = views, metrics, clock
        self._batch_size = batch_size
        self.notices: Notices | None = None  # new-post notices for open streams

    async def handle(self, deliveries: Sequence[Delivery]) -> None:
        """Handle a consumed batch. Posts and their authors' profiles are loaded once
        for the whole batch: per-post round trips, not timeline inserts, bound a worker."""
        published = [d.event.post_id for d in deliveries if isinstance(d.event, PostPublished)]
        posts = await self._posts.posts(published)
        author_ids = list({post.author_id for post in posts.values()})
        authors = await self._profiles.profiles(author_ids)
        for delivery in deliveries:
            event = delivery.event
            if isinstance(event, PostPublished):
                post = posts.get(event.post_id)
                author = authors.get(post.author_id) if post is not None else None
                await self.fan_out_post(post, author, delivery.lane)
            elif isinstance(event, PostDeleted):
                await self.purge_deleted(event)
            self._metrics.fanout_events.labels(type(event).__name__).inc()

    async def fan_out_post(self, post: Post | None, author: UserProfile | None, lane: Lane) -> None:
        if post is None or post.deleted:
            return  # gone: nothing left to do
        await self._author_timelines.push_if_present(post.author_id, post.id)
        await self._timelines.insert_if_present([post.author_id], post.id)
        if author is None or not author.pulled:
            await self._push_to_followers(post)
        elif self.notices is not None:
            await self.notices.pulled_author_posted(post.author_id, post.id)
        if self.notices is not None:
            await self.notices.reached([post.author_id], post.id)
        lag = (self._clock() - post.created_at).total_seconds()
        self._metrics.fanout_lag.labels(lane).observe(max(lag, 0.0))

    async def _push_to_followers(self, post: Post) -> None:
        after, size = 0, self._batch_size
        while batch := await self._followers.follower_batch(post.author_id, after, size):
            written = await self._timelines.insert_if_present(batch, post.id)
            self._metrics.fanout_timeline_writes.inc(written)
            if self.notices is not None:
                await self.notices.reached(batch, post.id)
            if len(batch) < size:
                break  # a short batch is the last one: no query for an empty one
            after = batch[-1]

    async def purge_deleted(self, event: PostDeleted) -> None:
        """Second step of a delete: the tombstone already hides the post; now drop it
        from the caches. Home timelines keep the ID and are filtered at read time, then
        trimmed as newer posts arrive: touching millions of timelines is not worth it."""
        await self._author_timelines.remove(event.author_id, event.post_id)
        await self._views.forget_posts([event.post_id])
