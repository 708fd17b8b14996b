"""Edit a post (PATCH /v1/posts/{id}) and read its history (GET /v1/posts/{id}/history).

Only the author edits, within a new post's limits: the text, the alt text of its
media, the media list (media the author uploaded). The visibility never changes (who
could already see a post is not taken back or widened by an edit): asking is 422. A
post of someone else, a deleted one or a repost is 404 (a repost has nothing of its
own to edit), as for any post one may not write.

A new text is parsed again (write/facets.py, as for a new post); the store keeps the
replaced version and writes the new one in one transaction, with the mentions and
tags of its facets (a mention added by the edit is recorded) and the search index
(adapters/sql/edits.py). No home timeline is touched (they hold IDs; only the
cached lists of the tags it lost or gained, lookups/tag_timelines.py);
the cached view is dropped after the commit, so the next read anywhere (every feed,
thread, search, every process: on Redis each near cache hears the delete) shows the
new text. An edit that changes nothing writes nothing. With `Idempotency-Key`, a
retry answers the first edit again; the key under another request is 409.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from feedloom.domain.errors import Conflict, InvalidInput, NotFound
from feedloom.domain.facets import Facet
from feedloom.domain.idempotency import check_idempotency_key
from feedloom.domain.ids import parse_id
from feedloom.domain.model import Media, Post, PostVersion, UserProfile, Visibility
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.ports import Clock, OwnedMedia, PostEdits, PostStore
from feedloom.write.facets import ParseFacets
from feedloom.write.idempotency import replayed_id, request_hash
from feedloom.write.publish_post import PostLimits
from feedloom.write.throttle import Throttle


@dataclass(frozen=True, slots=True)
class MediaChoice:
    """One medium of the edited post, in order, with its alt text (None: unchanged)."""

    media_id: str
    alt: str | None = None


@dataclass(frozen=True, slots=True)
class PostChanges:
    text: str | None = None
    media: Sequence[MediaChoice] | None = None
    visibility: Visibility | None = None


@dataclass(frozen=True, slots=True)
class Edited:
    post_id: int
    replayed: bool


@dataclass(frozen=True, slots=True)
class History:
    author: UserProfile
    versions: list[PostVersion]  # oldest first; the last is the post as it is now


class EditPost:
    def __init__(
        self,
        posts: PostStore,
        edits: PostEdits,
        media: OwnedMedia,
        views: Views,
        access: Access,
        facets: ParseFacets,
        throttle: Throttle,
        clock: Clock,
        limits: PostLimits,
        tagged: TagTimelines,
    ) -> None:
        self._posts, self._edits, self._media = posts, edits, media
        self._views, self._access, self._throttle, self._clock = views, access, throttle, clock
        self._facets, self._tagged = facets, tagged
        self.limits = limits

    async def __call__(
        self, author_id: int, post_id: int, changes: PostChanges, idempotency_key: str | None
    ) -> Edited:
        request = _request(post_id, changes)
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
            stored = await self._posts.stored_response(author_id, idempotency_key)
            if stored is not None:
                return await self._replayed(replayed_id(stored, "edit", request))
        post = await self._own_post(author_id, post_id)
        # What the post is decides these two, so they conflict with it (409); a request
        # that empties both fields at once is refused as bad input by its schema (422).
        if changes.visibility is not None and changes.visibility is not post.visibility:
            raise Conflict("the visibility of a post cannot change")
        text = self._text(post, changes.text)
        media = await self._media_of(author_id, post, changes.media)
        if not text and not media:
            if changes.text is not None and changes.media is not None:
                raise InvalidInput("a post needs text or media")
            raise Conflict("the edit would leave the post with neither text nor media")
        if text == post.text and media == post.media:
            return Edited(post_id, replayed=False)  # nothing changes: nothing written
        await self._throttle.account("posts", author_id, once=idempotency_key)
        facets = post.facets if text == post.text else await self._facets(author_id, text)
        stored = await self._edits.edit_post(
            post_id, author_id, text, facets, media, idempotency_key, request, self._clock()
        )
        if stored.kind != "edit" or stored.result_id != post_id:
            replayed_id(stored, "edit", request)  # another request's key: refused
        await self._views.forget_posts([post_id])
        await self._retagged(post, facets)
        return Edited(post_id, replayed=False)

    async def _retagged(self, post: Post, facets: tuple[Facet, ...]) -> None:
        """The tags' cached lists follow the edit: those of the tags it lost are dropped
        (refilled on their next read), it joins those it gained (no home timeline is
        touched)."""
        now = list(dict.fromkeys(f.value for f in facets if f.kind == "tag"))
        await self._tagged.untagged([name for name in post.tags if name not in now])
        if any(name not in post.tags for name in now):
            await self._tagged.published([post.id])

    async def history(self, viewer_id: int, post_id: int) -> History:
        """Every version of a post the viewer may see, oldest first."""
        post = await self._access.visible_post(viewer_id, post_id)
        if post.repost_of is not None:
            raise NotFound("a repost has no history of its own")
        author = (await self._views.profiles([post.author_id])).get(post.author_id)
        if author is None:
            raise NotFound("no such post")
        current = PostVersion(post.text, post.shown_media, post.edited_at or post.created_at)
        return History(author, [*await self._edits.versions(post_id), current])

    async def _own_post(self, author_id: int, post_id: int) -> Post:
        # From the store, not the cache: an edit must start from the stored text.
        post = (await self._posts.posts([post_id])).get(post_id)
        if post is None or post.author_id != author_id or post.deleted:
            raise NotFound("no such post")  # someone else's: missing to this author
        if post.repost_of is not None:
            raise NotFound("a repost has no text of its own to edit")
        return post

    def _text(self, post: Post, text: str | None) -> str:
        if text is None:
            return post.text
        # A reply may be as long as a comment: comments are replies (write/publish_post.py).
        limit = self.limits.comment_max_chars if post.in_reply_to else self.limits.max_chars
        limit = max(limit, self.limits.max_chars)
        if len(text) > limit:  # as sent: what the OpenAPI document bounds
            raise InvalidInput(f"text is longer than {limit} characters")
        return text.strip()

    async def _media_of(
        self, author_id: int, post: Post, choices: Sequence[MediaChoice] | None
    ) -> tuple[Media, ...]:
        if choices is None:
            return post.media
        if len(choices) > self.limits.media_per_post:
            raise InvalidInput(f"at most {self.limits.media_per_post} media per post")
        try:
            wanted = [parse_id(choice.media_id) for choice in choices]
        except ValueError as error:
            raise InvalidInput(f"media: {error}") from error
        if len(set(wanted)) != len(wanted):
            raise InvalidInput("media: each medium at most once")
        kept = {item.id: item for item in post.media}
        added = await self._media.media_owned_by(
            author_id, [media_id for media_id in wanted if media_id not in kept]
        )
        found = {**{item.id: item for item in added}, **kept}
        if len(found.keys() & set(wanted)) != len(wanted):
            raise NotFound("media must name media you uploaded")
        return tuple(
            _with_alt(found[media_id], choice.alt)
            for media_id, choice in zip(wanted, choices, strict=True)
        )

    async def _replayed(self, post_id: int) -> Edited:
        post = await self._views.post(post_id)
        if post is None or post.deleted:
            raise NotFound("the post this Idempotency-Key edited is gone")
        return Edited(post_id, replayed=True)


def _with_alt(item: Media, alt: str | None) -> Media:
    return item if alt is None else replace(item, alt=alt.strip())


def _request(post_id: int, changes: PostChanges) -> str:
    media = (
        None
        if changes.media is None
        else [[choice.media_id, choice.alt] for choice in changes.media]
    )
    visibility = changes.visibility.value if changes.visibility is not None else None
    return request_hash("edit", post_id, changes.text, media, visibility)
