"""Delete a post (or a reply, or a comment: the same) in two steps: a tombstone at once
(every read drops it from then on), then background cleanup of caches through the
outbox (fan_out.purge_deleted). A deleted reply stops counting as its parent's comment;
a deleted repost or quote stops counting for its original (the store keeps that count
in the tombstone's transaction; the original's cached view is dropped here)."""

from __future__ import annotations

from typing import NoReturn

from feedloom.domain.errors import Forbidden, NotFound
from feedloom.domain.model import Post
from feedloom.domain.visibility import may_see
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.ports import Clock, PostStore
from feedloom.write.engagement import RepliesCounted


class DeletePost:
    def __init__(
        self,
        posts: PostStore,
        views: Views,
        access: Access,
        states: ReaderStates,
        replies: RepliesCounted,
        tagged: TagTimelines,
        clock: Clock,
    ) -> None:
        self._posts, self._views, self._access, self._clock = posts, views, access, clock
        self._states, self._replies, self._tagged = states, replies, tagged

    async def __call__(self, user_id: int, post_id: int) -> None:
        # From the store, not the cache: deleting twice must see the tombstone.
        post = (await self._posts.posts([post_id])).get(post_id)
        if post is None:
            raise NotFound("no such post")
        await self._delete(user_id, post)

    async def comment(self, user_id: int, post_id: int, comment_id: int) -> None:
        """DELETE /v1/posts/{id}/comments/{comment_id}: one of the post's direct
        replies; a comment that is not (or no longer) there is already deleted."""
        await self._access.visible_post(user_id, post_id)
        reply = (await self._posts.posts([comment_id])).get(comment_id)
        if reply is not None and reply.in_reply_to == post_id:
            await self._delete(user_id, reply)

    async def _delete(self, user_id: int, post: Post) -> None:
        if post.author_id != user_id:
            await self._refuse(user_id, post)
        if post.deleted:
            return  # already gone: deleting twice is the same as once
        if await self._posts.tombstone(post.id, self._clock()):
            await self._replies.removed(post)
        # The cached view must not outlive the tombstone, or a reader could still see it;
        # nor an original's view its old count of reposts or quotes.
        shared = [linked for linked in (post.repost_of, post.quote_of) if linked is not None]
        await self._views.forget_posts([post.id, *shared])
        await self._tagged.untagged(post.tags)  # the read filter hides it meanwhile
        if post.repost_of is not None:
            await self._states.changed([user_id])  # reposted_by_me

    async def _refuse(self, user_id: int, post: Post) -> NoReturn:
        """Someone else's post: 403 only if this user may see it at all, else 404, so
        that a followers-only or blocked post's existence is not confirmed."""
        if may_see(await self._access.viewer_of(user_id, post.author_id), post) is not None:
            raise NotFound("no such post")
        raise Forbidden("only the author can delete a post")
