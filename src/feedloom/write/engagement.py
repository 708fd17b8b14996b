"""Likes and comments. The unique (post, user) row is the truth and is written at
once; displayed counts follow through the counter buffer (lookups/counts.py: at once
on an ordinary post, batched and sharded on a hot one), and the
signals right after (lookups/signals.py: trending, like spikes) and the reader ->
author affinity (affinity.py). Accounts flagged as suspicious (write/moderation.py)
still like and comment, but their engagement feeds neither trending nor affinity."""

from __future__ import annotations

from feedloom.domain.errors import Forbidden, InvalidInput, NotFound
from feedloom.domain.idempotency import check_idempotency_key
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Comment
from feedloom.domain.trending import COMMENT_WEIGHT, LIKE_WEIGHT
from feedloom.lookups.access import Access
from feedloom.lookups.counts import CounterBuffer
from feedloom.lookups.likes import Likes
from feedloom.lookups.signals import EngagementSignals
from feedloom.ports import Clock, Engagement, StoredResponse
from feedloom.write.affinity import AffinityUpdates
from feedloom.write.idempotency import replayed_id, request_hash
from feedloom.write.throttle import Throttle


class Engage:
    def __init__(
        self,
        engagement: Engagement,
        likes: Likes,
        access: Access,
        buffer: CounterBuffer,
        affinity: AffinityUpdates,
        signals: EngagementSignals,
        ids: IdGenerator,
        clock: Clock,
        throttle: Throttle,
        comment_max_chars: int,
    ) -> None:
        self._engagement, self._likes = engagement, likes
        self._access, self._buffer = access, buffer
        self._affinity, self._signals = affinity, signals
        self._ids, self._clock = ids, clock
        self._throttle, self._comment_max_chars = throttle, comment_max_chars

    async def like(self, user_id: int, post_id: int) -> bool:
        post = await self._access.visible_post(user_id, post_id)
        # Liking a post again (a retry) within the window is free; unliking is not, so
        # toggling a like on and off stays limited.
        await self._throttle.account("likes", user_id, once=f"like:{post_id}")
        now = self._clock()
        created = await self._engagement.like(post_id, user_id, now)
        await self._likes.liked(user_id, post_id)  # also on a retry: it may follow a failure
        if created:
            await self._buffer.add(post_id, likes=1)
            if await self._signals.engaged(user_id, post, LIKE_WEIGHT, like=True):
                await self._affinity.record(user_id, post.author_id, "like", now)
        return created

    async def unlike(self, user_id: int, post_id: int) -> bool:
        """Affinity is left as is: see affinity.py for why."""
        await self._access.visible_post(user_id, post_id)
        await self._throttle.account("likes", user_id)
        removed = await self._engagement.unlike(post_id, user_id)
        await self._likes.unliked(user_id)
        if removed:
            await self._buffer.add(post_id, likes=-1)
        return removed

    async def comment(
        self, user_id: int, post_id: int, text: str, idempotency_key: str | None = None
    ) -> Comment:
        """Comment; a retry under the same Idempotency-Key answers the first comment,
        the same key with other text or on another post is refused (write/idempotency.py)."""
        post = await self._access.visible_post(user_id, post_id)
        text = text.strip()
        if not 0 < len(text) <= self._comment_max_chars:
            raise InvalidInput(f"comment text must be 1-{self._comment_max_chars} characters")
        request = request_hash(post_id, text)
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
            stored = await self._engagement.stored_response(user_id, idempotency_key)
            if stored is not None:
                return await self._replayed(post_id, stored, request)
        await self._throttle.account("comments", user_id, once=idempotency_key)
        now = self._clock()
        comment = Comment(self._ids.next_id(), post_id, user_id, text, now)
        stored = await self._engagement.add_comment(comment, idempotency_key, request, now)
        if stored.result_id != comment.id:  # a concurrent retry with the same key won
            return await self._replayed(post_id, stored, request)
        await self._buffer.add(post_id, comments=1)
        if await self._signals.engaged(user_id, post, COMMENT_WEIGHT, like=False):
            await self._affinity.record(user_id, post.author_id, "comment", now)
        return comment

    async def _replayed(self, post_id: int, stored: StoredResponse, request: str) -> Comment:
        first = await self._engagement.comment(post_id, replayed_id(stored, "comment", request))
        if first is None:  # its post (or its author) was erased since
            raise NotFound("the comment this Idempotency-Key created is gone")
        return first

    async def delete_comment(self, user_id: int, post_id: int, comment_id: int) -> bool:
        """Delete your own comment; false when it is already gone (a retry)."""
        await self._access.visible_post(user_id, post_id)
        comment = await self._engagement.comment(post_id, comment_id)
        if comment is None:
            return False
        if comment.author_id != user_id:
            raise Forbidden("only its author can delete a comment")
        removed = await self._engagement.delete_comment(post_id, comment_id, user_id)
        if removed:
            await self._buffer.add(post_id, comments=-1)
        return removed
