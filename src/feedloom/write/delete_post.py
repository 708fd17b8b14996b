"""Delete a post in two steps: a tombstone at once (every read drops it from then
on), then background cleanup of caches through the outbox (fan_out.purge_deleted_post)."""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.errors import Forbidden, NotFound


async def delete_post(backend: Backend, user_id: int, post_id: int) -> None:
    post = (await backend.posts.posts([post_id])).get(post_id)
    if post is None:
        raise NotFound("no such post")
    if post.author_id != user_id:
        raise Forbidden("only the author can delete a post")
    if post.deleted:
        return  # already gone: deleting twice is the same as once
    await backend.posts.tombstone(post_id, backend.clock())
    # The cached view must not outlive the tombstone, or a reader could still see it.
    await backend.post_cache.delete_many([post_id])
