"""Fan-out on write: insert a new post's ID into its followers' timelines.

Workers receive events carrying IDs only and are idempotent: a post that is gone
means the work is done, and a repeated delivery inserts an ID the timeline already
holds, which changes nothing. Followers without a timeline (inactive, or never built)
are skipped inside the store; their timelines are rebuilt when they return. Pulled
authors are not fanned out at all: readers merge their author timeline.
"""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.model import Event, Post, PostDeleted, PostPublished
from feedloom.ports import Lane


async def handle_event(backend: Backend, event: Event, lane: Lane) -> None:
    if isinstance(event, PostPublished):
        await fan_out_post(backend, event, lane)
    elif isinstance(event, PostDeleted):
        await purge_deleted_post(backend, event)
    backend.metrics.fanout_events.labels(type(event).__name__).inc()


async def fan_out_post(backend: Backend, event: PostPublished, lane: Lane) -> None:
    post = (await backend.posts.posts([event.post_id])).get(event.post_id)
    if post is None or post.deleted:
        return
    await backend.author_timelines.push_if_present(post.author_id, post.id)
    await backend.timelines.insert_if_present([post.author_id], post.id)
    if not await _is_pulled(backend, post.author_id):
        await _push_to_followers(backend, post)
    lag = (backend.clock() - post.created_at).total_seconds()
    backend.metrics.fanout_lag.labels(lane).observe(max(lag, 0.0))


async def _is_pulled(backend: Backend, author_id: int) -> bool:
    profile = (await backend.accounts.profiles([author_id])).get(author_id)
    return profile is not None and profile.pulled


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
