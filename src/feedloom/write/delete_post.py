"""Delete a post in two steps: a tombstone at once (every read drops it from then
on), then background cleanup of caches through the outbox (fan_out.purge_deleted)."""

from __future__ import annotations

from feedloom.domain.errors import Forbidden, NotFound
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock, PostStore


class DeletePost:
    def __init__(self, posts: PostStore, views: Views, clock: Clock) -> None:
        self._posts, self._views, self._clock = posts, views, clock

    async def __call__(self, user_id: int, post_id: int) -> None:
        post = (await self._posts.posts([post_id])).get(post_id)
        if post is None:
            raise NotFound("no such post")
        if post.author_id != user_id:
            raise Forbidden("only the author can delete a post")
        if post.deleted:
            return  # already gone: deleting twice is the same as once
        await self._posts.tombstone(post_id, self._clock())
        # The cached view must not outlive the tombstone, or a reader could still see it.
        await self._views.forget_posts([post_id])
