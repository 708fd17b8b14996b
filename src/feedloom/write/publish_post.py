"""Publish a post: validate, then post row + outbox event in one transaction.

The author never waits for fan-out: the outbox relay and fan-out workers take it
from here. A retried request with the same Idempotency-Key returns the first answer;
the same key with a different body is refused rather than guessed at.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime

from feedloom.domain.errors import IdempotencyMismatch, InvalidInput, RateLimited
from feedloom.domain.idempotency import check_idempotency_key
from feedloom.domain.ids import IdGenerator, created_at_of, parse_id
from feedloom.domain.model import Counts, Post, Visibility
from feedloom.lookups.cached_views import Views
from feedloom.ports import (
    AuthorTimelineStore,
    Clock,
    CounterStore,
    MediaStore,
    PostStore,
    RateLimiter,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PublishedPost:
    post_id: int
    created_at: datetime
    replayed: bool


@dataclass(frozen=True, slots=True)
class PostLimits:
    max_chars: int
    media_per_post: int
    per_minute: int


class PublishPost:
    def __init__(
        self,
        posts: PostStore,
        media: MediaStore,
        author_timelines: AuthorTimelineStore,
        views: Views,
        counters: CounterStore,
        rate_limiter: RateLimiter,
        ids: IdGenerator,
        clock: Clock,
        limits: PostLimits,
    ) -> None:
        self._posts, self._media, self._rate_limiter = posts, media, rate_limiter
        self._author_timelines, self._views, self._counters = author_timelines, views, counters
        self._ids, self._clock = ids, clock
        self.limits = limits  # public: operators (and tests) may tighten them at run time

    async def __call__(
        self,
        author_id: int,
        text: str,
        media_ids: list[str],
        visibility: Visibility,
        idempotency_key: str | None,
    ) -> PublishedPost:
        request_hash = _request_hash(text, media_ids, visibility)
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
            replay = await self._replay(author_id, idempotency_key, request_hash)
            if replay is not None:
                return replay
        post = await self._new_post(author_id, text, media_ids, visibility)
        await self._enforce_rate_limit(author_id)
        stored = await self._posts.create_post(post, idempotency_key, request_hash, self._clock())
        if stored.post_id != post.id:  # a concurrent retry with the same key won the race
            return _replayed(stored.post_id, stored.request_hash, request_hash)
        await self._show_to_author(post)
        return PublishedPost(post.id, post.created_at, replayed=False)

    async def _show_to_author(self, post: Post) -> None:
        """Read-your-writes without the store: the author's own feed merges their author
        timeline, so the post is there at once; its view and its (zero) counts are cached
        for its first readers. Best effort: the post is stored, its fan-out pushes it to
        the author timeline again, and a missing view or counter is read from the store."""
        try:
            await self._author_timelines.push_if_present(post.author_id, post.id)
            await self._views.remember_posts([post])
            await self._counters.set_many({post.id: Counts()})
        except Exception:
            log.warning("post %s not cached at once; its readers load it", post.id)

    async def _replay(self, author_id: int, key: str, request_hash: str) -> PublishedPost | None:
        stored = await self._posts.stored_response(author_id, key)
        if stored is None:
            return None
        return _replayed(stored.post_id, stored.request_hash, request_hash)

    async def _new_post(
        self, author_id: int, text: str, media_ids: list[str], visibility: Visibility
    ) -> Post:
        limits = self.limits
        text = text.strip()
        if not text and not media_ids:
            raise InvalidInput("a post needs text or media")
        if len(text) > limits.max_chars:
            raise InvalidInput(f"text is longer than {limits.max_chars} characters")
        if len(media_ids) > limits.media_per_post:
            raise InvalidInput(f"at most {limits.media_per_post} media per post")
        try:
            wanted = list(dict.fromkeys(parse_id(media_id) for media_id in media_ids))
        except ValueError as error:
            raise InvalidInput(f"media_ids: {error}") from error
        media = await self._media.media_owned_by(author_id, wanted)
        if len(media) != len(wanted):
            raise InvalidInput("media_ids must name media you uploaded")
        post_id = self._ids.next_id()
        return Post(
            id=post_id,
            author_id=author_id,
            text=text,
            visibility=visibility,
            created_at=created_at_of(post_id),
            media=tuple(media),
        )

    async def _enforce_rate_limit(self, author_id: int) -> None:
        limit = self.limits.per_minute
        retry_after = await self._rate_limiter.hit(f"posts:{author_id}", limit, 60)
        if retry_after:
            raise RateLimited(f"at most {limit} posts per minute", retry_after)


def _replayed(post_id: int, stored_hash: str, request_hash: str) -> PublishedPost:
    if stored_hash != request_hash:
        raise IdempotencyMismatch(
            "this Idempotency-Key was already used with a different request body; "
            "use a new key for a new post"
        )
    return PublishedPost(post_id, created_at_of(post_id), replayed=True)


def _request_hash(text: str, media_ids: list[str], visibility: Visibility) -> str:
    body = json.dumps([text, media_ids, visibility.value], separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()
