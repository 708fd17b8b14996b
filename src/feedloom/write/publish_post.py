"""Publish a post or a reply: validate, then post row + outbox event in one transaction.

The author never waits for fan-out: the outbox relay and fan-out workers take it
from here. A retried request with the same Idempotency-Key returns the first answer;
the same key with a different body is refused rather than guessed at.

A reply is a post with a parent (`in_reply_to`): the author must be able to see the
parent (else 404, nothing written), and the store checks again, in the reply's own
transaction, that the parent is still there. A reply to a repost's ID replies to its
original (the post the reader was shown; a repost has no text to answer). A comment
(POST /v1/posts/{id}/comments) is the same reply under the comment limits, with its
post's visibility.

A quote (`quote_of`) embeds another post: the author must be able to see it (else
404: a deleted post, one's own too, is not there) and it must be public (else 422,
domain/reposts.py); the store checks both again in the quote's transaction and counts
the quote there. A quote of a repost quotes its original.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.idempotency import check_idempotency_key
from feedloom.domain.ids import IdGenerator, created_at_of, parse_id
from feedloom.domain.model import Comment, Counts, Post, Visibility
from feedloom.domain.reposts import check_shareable
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.ports import (
    AuthorTimelineStore,
    Clock,
    CounterStore,
    OwnedMedia,
    PostStore,
    StoredResponse,
)
from feedloom.write.engagement import RepliesCounted
from feedloom.write.facets import ParseFacets
from feedloom.write.idempotency import replayed_id, request_hash
from feedloom.write.tag_use import TagUse
from feedloom.write.throttle import Throttle

log = logging.getLogger(__name__)
Kind = Literal["post", "comment"]


@dataclass(frozen=True, slots=True)
class PublishedPost:
    post_id: int
    created_at: datetime
    replayed: bool


@dataclass(frozen=True, slots=True)
class PostLimits:
    max_chars: int
    media_per_post: int
    comment_max_chars: int = 1_000


class PublishPost:
    def __init__(
        self,
        posts: PostStore,
        media: OwnedMedia,
        author_timelines: AuthorTimelineStore,
        views: Views,
        counters: CounterStore,
        access: Access,
        replies: RepliesCounted,
        facets: ParseFacets,
        tag_use: TagUse,
        throttle: Throttle,
        ids: IdGenerator,
        clock: Clock,
        limits: PostLimits,
    ) -> None:
        self._posts, self._media, self._throttle = posts, media, throttle
        self._facets, self._tag_use = facets, tag_use
        self._author_timelines, self._views, self._counters = author_timelines, views, counters
        self._access, self._replies = access, replies
        self._ids, self._clock = ids, clock
        self.limits = limits  # public: operators (and tests) may tighten them at run time

    async def __call__(
        self,
        author_id: int,
        text: str,
        media_ids: list[str],
        visibility: Visibility,
        idempotency_key: str | None,
        *,
        in_reply_to: str | None = None,
        quote_of: str | None = None,
    ) -> PublishedPost:
        parts: list[object] = [text, media_ids, visibility.value]
        if in_reply_to or quote_of:
            parts.append(in_reply_to)
        if quote_of:
            parts.append(quote_of)
        request = request_hash(*parts)
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
            stored = await self._posts.stored_response(author_id, idempotency_key)
            if stored is not None:
                return await self._first_post(replayed_id(stored, "post", request))
        post = await self._new_post(author_id, text, media_ids, visibility, self.limits.max_chars)
        parent = None
        if in_reply_to is not None:
            parent = await self._access.visible_post(
                author_id, _body_id("in_reply_to", in_reply_to)
            )
            parent = parent.shown
            post = replace(post, in_reply_to=parent.id, reply_to_author=parent.author_id)
        if quote_of is not None:
            quoted = await self._access.visible_post(author_id, _body_id("quote_of", quote_of))
            quoted = quoted.shown
            check_shareable(quoted, author_id, "quoted")
            post = replace(post, quote_of=quoted.id)
        stored_id = await self._store(post, parent, idempotency_key, request, "post", "posts")
        if stored_id != post.id:
            return _replayed(stored_id)
        if post.quote_of is not None:
            await self._views.forget_posts([post.quote_of])  # its count of quotes
        return PublishedPost(post.id, post.created_at, replayed=False)

    async def comment(
        self, author_id: int, post_id: int, text: str, idempotency_key: str | None
    ) -> Comment:
        """A direct reply through the comments endpoint: comment limits and throttle,
        the post's visibility, the comment's shape; a retry answers the first one."""
        request = request_hash(post_id, text.strip())
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
            stored = await self._posts.stored_response(author_id, idempotency_key)
            if stored is not None:
                return await self._first_comment(post_id, stored, request)
        parent = (await self._access.visible_post(author_id, post_id)).shown
        # The length as sent (what the OpenAPI document bounds), the blank test stripped.
        too_long = len(text) > self.limits.comment_max_chars
        text = text.strip()
        if too_long or not text:
            raise InvalidInput(f"comment text must be 1-{self.limits.comment_max_chars} characters")
        post = await self._new_post(
            author_id, text, [], parent.visibility, self.limits.comment_max_chars
        )
        post = replace(post, in_reply_to=parent.id, reply_to_author=parent.author_id)
        stored_id = await self._store(post, parent, idempotency_key, request, "comment", "comments")
        if stored_id != post.id:
            stored = StoredResponse(request, stored_id, "comment")
            return await self._first_comment(post_id, stored, request)
        return Comment.of(post)

    async def _store(
        self,
        post: Post,
        parent: Post | None,
        key: str | None,
        request: str,
        kind: Kind,
        throttle: str,
    ) -> int:
        """Store the post; the ID stored under the key (another one if a concurrent
        retry with the same key won the race)."""
        # A retry racing its first attempt is charged once (the limiter's `once`).
        await self._throttle.account(throttle, post.author_id, once=key)
        stored = await self._posts.create_post(post, key, request, self._clock(), kind)
        if stored.result_id != post.id:
            replayed_id(stored, kind, request)  # refuses another request's key
            return stored.result_id
        await self._show_to_author(post)
        await self._tag_use.counted(post)
        if parent is not None:
            await self._replies.added(post, parent)
        return post.id

    async def _first_post(self, post_id: int) -> PublishedPost:
        """A retry's answer: the first post, unless it was deleted since (then what the
        key created is gone, as for a comment: a 201 would name a post that is not)."""
        first = await self._views.post(post_id)
        if first is None or first.deleted:
            raise NotFound("the post this Idempotency-Key created is gone")
        return _replayed(post_id)

    async def _first_comment(self, post_id: int, stored: StoredResponse, request: str) -> Comment:
        first = await self._views.post(replayed_id(stored, "comment", request))
        on = await self._views.post(post_id)  # a repost's ID: the comment is on its original
        parent_id = on.shown.id if on is not None else post_id
        if first is None or first.in_reply_to != parent_id or first.deleted:
            raise NotFound("the comment this Idempotency-Key created is gone")
        return Comment.of(first)

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

    async def _new_post(
        self,
        author_id: int,
        text: str,
        media_ids: list[str],
        visibility: Visibility,
        max_chars: int,
    ) -> Post:
        limits = self.limits
        if len(text) > max_chars:  # as sent: what the OpenAPI document bounds
            raise InvalidInput(f"text is longer than {max_chars} characters")
        text = text.strip()
        if not text and not media_ids:
            raise InvalidInput("a post needs text or media")
        if len(media_ids) > limits.media_per_post:
            raise InvalidInput(f"at most {limits.media_per_post} media per post")
        try:
            wanted = list(dict.fromkeys(parse_id(media_id) for media_id in media_ids))
        except ValueError as error:
            raise InvalidInput(f"media_ids: {error}") from error
        media = await self._media.media_owned_by(author_id, wanted)
        if len(media) != len(wanted):
            # Someone else's media, or none: missing to this author, as a post it may
            # not see is.
            raise NotFound("media_ids must name media you uploaded")
        post_id = self._ids.next_id()
        return Post(
            id=post_id,
            author_id=author_id,
            text=text,
            visibility=visibility,
            created_at=created_at_of(post_id),
            media=tuple(media),
            facets=await self._facets(author_id, text),
        )


def _body_id(field: str, value: str) -> int:
    try:
        return parse_id(value)
    except ValueError as error:
        raise InvalidInput(f"{field}: {error}") from error


def _replayed(post_id: int) -> PublishedPost:
    return PublishedPost(post_id, created_at_of(post_id), replayed=True)
