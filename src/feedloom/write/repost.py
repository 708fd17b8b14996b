"""Repost and unrepost (PUT|DELETE /v1/posts/{id}/repost): idempotent, `{changed}`.

A repost is a post of its own (domain/reposts.py): its row, outbox event and the
original's count in one transaction (ports.RepostStore), then the same steps after
the commit as a new post: the reposter's author timeline (read-your-writes) and its
view. Fan-out carries it by the reposter's size, like their posts. Reposting a repost
reposts its original. Only a public post the reposter may see can be reposted.

After either write, the original's cached view (its count) and the reposter's record
(`reposted_by_me`) are dropped; an unrepost, like a delete, is a tombstone the next
read filters, and its outbox event purges the caches.
"""

from __future__ import annotations

import logging

from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Post, Visibility
from feedloom.domain.reposts import check_shareable
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import AuthorTimelineStore, Clock, RepostStore
from feedloom.write.throttle import Throttle

log = logging.getLogger(__name__)


class Repost:
    def __init__(
        self,
        reposts: RepostStore,
        access: Access,
        views: Views,
        states: ReaderStates,
        author_timelines: AuthorTimelineStore,
        throttle: Throttle,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._reposts, self._access, self._views, self._states = reposts, access, views, states
        self._author_timelines, self._throttle = author_timelines, throttle
        self._ids, self._clock = ids, clock

    async def repost(self, user_id: int, post_id: int) -> bool:
        original = await self._original(user_id, post_id)
        check_shareable(original, user_id, "reposted")
        # A retry is free: it finds the live repost and changes nothing.
        await self._throttle.account("posts", user_id, once=f"repost:{original.id}")
        now = self._clock()
        repost_id = self._ids.next_id()
        repost = Post(repost_id, user_id, "", Visibility.PUBLIC, now, repost_of=original.id)
        stored = await self._reposts.repost(repost, now)
        await self._changed(user_id, original.id)
        if stored != repost_id:
            return False
        try:
            await self._author_timelines.push_if_present(user_id, repost_id)
            await self._views.remember_posts([repost])
        except Exception:
            log.warning("repost %s not cached at once; its readers load it", repost_id)
        return True

    async def unrepost(self, user_id: int, post_id: int) -> bool:
        original = await self._original(user_id, post_id)
        removed = await self._reposts.unrepost(user_id, original.id, self._clock())
        await self._changed(user_id, original.id)
        if removed is not None:
            await self._views.forget_posts([removed])
        return removed is not None

    async def _original(self, user_id: int, post_id: int) -> Post:
        """The post, or the original of a repost (NotFound unless the user may see it)."""
        post = await self._access.visible_post(user_id, post_id)
        return post.original if post.original is not None else post

    async def _changed(self, user_id: int, original_id: int) -> None:
        await self._views.forget_posts([original_id])
        await self._states.changed([user_id])
