"""Likes, and what a reply (a comment) does beyond its post. The unique (post, user)
like row is the truth and is written at once; a reply is a post (write/publish_post.py)
and the live replies are the truth of the comment count. Displayed counts follow
through the counter buffer (lookups/counts.py: at once on an ordinary post, batched and
sharded on a hot one), and the signals right after (lookups/signals.py: trending, like
spikes) and the reader -> author affinity (affinity.py). Accounts flagged as
suspicious (write/moderation.py) still like and reply, but their engagement feeds
neither trending nor affinity."""

from __future__ import annotations

from typing import Protocol

from feedloom.domain.model import Post
from feedloom.domain.trending import COMMENT_WEIGHT, LIKE_WEIGHT
from feedloom.lookups.access import Access
from feedloom.lookups.counts import CounterBuffer
from feedloom.lookups.likes import Likes
from feedloom.lookups.signals import EngagementSignals
from feedloom.ports import Clock, Engagement
from feedloom.write.affinity import AffinityUpdates
from feedloom.write.throttle import Throttle


class RepliesCounted(Protocol):
    """What publishing and deleting a reply tell its parent's counts (ReplyCounting)."""

    async def added(self, reply: Post, parent: Post) -> None: ...
    async def removed(self, reply: Post) -> None: ...


class ReplyCounting:
    """A reply counts as a comment of its parent: its count, trending and affinity."""

    def __init__(
        self,
        buffer: CounterBuffer,
        affinity: AffinityUpdates,
        signals: EngagementSignals,
        clock: Clock,
    ) -> None:
        self._buffer, self._affinity, self._signals, self._clock = buffer, affinity, signals, clock

    async def added(self, reply: Post, parent: Post) -> None:
        await self._buffer.add(parent.id, comments=1)
        if await self._signals.engaged(reply.author_id, parent, COMMENT_WEIGHT, like=False):
            await self._affinity.record(reply.author_id, parent.author_id, "comment", self._clock())

    async def removed(self, reply: Post) -> None:
        if reply.in_reply_to is not None:
            await self._buffer.add(reply.in_reply_to, comments=-1)


class Engage:
    def __init__(
        self,
        engagement: Engagement,
        likes: Likes,
        access: Access,
        buffer: CounterBuffer,
        affinity: AffinityUpdates,
        signals: EngagementSignals,
        clock: Clock,
        throttle: Throttle,
    ) -> None:
        self._engagement, self._likes = engagement, likes
        self._access, self._buffer = access, buffer
        self._affinity, self._signals = affinity, signals
        self._clock, self._throttle = clock, throttle

    async def like(self, user_id: int, post_id: int) -> bool:
        post = await self._access.visible_post(user_id, post_id)
        # Liking a post again (a retry) within the window is free; unliking is not, so
        # toggling a like on and off stays limited.
        await self._throttle.account("likes", user_id, once=f"like:{post_id}")
        now = self._clock()
        created = await self._engagement.like(post_id, user_id, now, notify=post.author_id)
        await self._likes.liked(user_id, post_id)  # also on a retry: it may follow a failure
        if created:
            await self._buffer.add(post_id, likes=1)
            if await self._signals.engaged(user_id, post, LIKE_WEIGHT, like=True):
                await self._affinity.record(user_id, post.author_id, "like", now)
        return created

    async def unlike(self, user_id: int, post_id: int) -> bool:
        """Affinity is left as is: see affinity.py for why."""
        post = await self._access.visible_post(user_id, post_id)
        await self._throttle.account("likes", user_id)
        removed = await self._engagement.unlike(post_id, user_id, notify=post.author_id)
        await self._likes.unliked(user_id)
        if removed:
            await self._buffer.add(post_id, likes=-1)
        return removed
