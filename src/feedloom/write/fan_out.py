"""Fan-out on write: insert a new post's ID into its followers' timelines.

Workers receive events carrying IDs only and are idempotent: a post that is gone
means the work is done, and a repeated delivery inserts an ID the timeline already
holds, which changes nothing. Followers without a timeline (inactive, or never built)
are skipped inside the store; their timelines are rebuilt when they return. Pulled
authors are not fanned out at all: readers merge their author timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.backend import Backend
from feedloom.domain.model import Post, PostDeleted, PostPublished, UserProfile
from feedloom.ports import Delivery, Lane


async def handle_events(backend: Backend, deliveries: Sequence[Delivery]) -> None:
    """Handle a consumed batch. Posts and their authors' profiles are loaded once for
    the whole batch: per-post round trips, not timeline inserts, bound a worker."""
    published = [d.event.post_id for d in deliveries if isinstance(d.event, PostPublished)]
    posts = await backend.posts.posts(published)
    authors = await backend.accounts.profiles(list({post.author_id for post in posts.values()}))
    for delivery in deliveries:
        event = delivery.event
        if isinstance(event, PostPublished):
            post = posts.get(event.post_id)
            author = authors.get(post.author_id) if post is not None else None
            await fan_out_post(backend, post, author, delivery.lane)
        elif isinstance(event, PostDeleted):
            await purge_deleted_post(backend, event)
        backend.metrics.fanout_events.labels(type(event).__name__).inc()


async def fan_out_post(
    backend: Backend, post: Post | None, author: UserProfile | None, lane: Lane
) -> None:
    if post is None or post.deleted:
        return  # gone: nothing left to do
    await backend.author_timelines.push_if_present(post.author_id, post.id)
    await backend.timelines.insert_if_present([post.author_id], post.id)
    if author is None or not author.pulled:
        await _push_to_followers(backend, post)
    lag = (backend.clock() - post.created_at).total_seconds()
    backend.metrics.fanout_lag.labels(lane).observe(max(lag, 0.0))


async def _push_to_followers(backend: Backend, post: Post) -> None:
    batch_size = backend.settings.fanout.batch_size
    after = 0
    while batch := await backend.graph.follower_batch(post.author_id, after, batch_size):
        written = await backend.timelines.insert_if_present(batch, post.id)
        backend.metrics.fanout_timeline_writes.inc(written)
        if len(batch) < batch_size:
            break  # a short batch is the last one: no query for an empty one
        after = batch[-1]


async def purge_deleted_post(backend: Backend, event: PostDeleted) -> None:
    """Second step of a delete: the tombstone already hides the post; now drop it
    from the caches. Home timelines keep the ID and are filtered at read time, then
    trimmed as newer posts arrive: touching millions of timelines is not worth it."""
    await backend.author_timelines.remove(event.author_id, event.post_id)
    await backend.post_cache.delete_many([event.post_id])
