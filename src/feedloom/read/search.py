"""GET /v1/search: posts, people or tags a reader may find.

Posts: the index (adapters/sql/search.py) returns the live posts holding every word
that the reader may read by visibility (public, followers-only of accounts they
follow, their own), in the order asked; each candidate then passes the same read-time
filter as a thread (domain/visibility.py `thread_filter`: blocks either way, mutes,
held posts, suspended authors), on its cached view, as every other page does. A page
that loses candidates to the filter asks the index for more, a bounded number of
times; the cursor is the last candidate examined, so nothing repeats or is skipped.

People: one code path with GET /v1/users/search (read/people.py). Tags: by prefix.
"""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.model import FeedItem, Post
from feedloom.domain.search import (
    SearchOrder,
    TagKey,
    decode_post_cursor,
    decode_tag_cursor,
    encode_post_cursor,
    encode_tag_cursor,
    search_words,
    tag_prefix,
)
from feedloom.domain.visibility import hidden_commenters, thread_filter
from feedloom.lookups.access import Access
from feedloom.ports import PostSearch
from feedloom.ports.tags import TagRecord
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.visible import overfetch

SOURCE = "search"
MAX_GATHERS = 4  # index reads per page: a page mostly hidden from the reader ends early


@dataclass(frozen=True, slots=True)
class FoundPosts:
    items: list[FeedItem]
    next_cursor: str | None


class SearchPosts:
    def __init__(self, index: PostSearch, access: Access, hydrator: Hydrator) -> None:
        self._index, self._access, self._hydrator = index, access, hydrator

    async def __call__(
        self, viewer_id: int, query: str, order: SearchOrder, limit: int, cursor: str | None
    ) -> FoundPosts:
        words, after = search_words(query), decode_post_cursor(order, cursor)
        viewer = await self._access.thread_viewer(viewer_id)
        readable = viewer.following | {viewer_id}
        kept: list[Post] = []
        loaded, last, more = Loaded(), after, True
        for _ in range(MAX_GATHERS):
            want = overfetch(limit - len(kept))
            keys = await self._index.find_posts(words, readable, last, want, order)
            views = await self._hydrator.views(viewer_id, [key.post_id for key in keys], loaded)
            examined = 0
            for key in keys:
                examined, last = examined + 1, key
                post = views.get(key.post_id)
                if post is not None and thread_filter(viewer, post) is None:
                    kept.append(post)
                    if len(kept) == limit:
                        break
            # More may follow `last` unless the index gave fewer than asked, all seen.
            more = len(keys) == want or examined < len(keys)
            if len(kept) == limit or not more:
                break
        items = await self._hydrator.hydrate(
            viewer_id,
            kept,
            {post.id: SOURCE for post in kept},
            loaded,
            hidden_commenters(viewer),
        )
        next_cursor = encode_post_cursor(order, last) if more and last is not None else None
        return FoundPosts(items, next_cursor)


@dataclass(frozen=True, slots=True)
class FoundTags:
    items: list[TagRecord]
    next_cursor: str | None


class SearchTags:
    """Tags by prefix: `caf` finds #café and #cafe (a tag is normalised once, as
    written: domain/facets.py); the tags of posts since deleted stay, with their count."""

    def __init__(self, index: PostSearch) -> None:
        self._index = index

    async def __call__(self, query: str, limit: int, cursor: str | None) -> FoundTags:
        prefix, after = tag_prefix(query), decode_tag_cursor(cursor)
        if prefix is None:
            return FoundTags([], None)
        found = await self._index.find_tags(prefix, after, limit + 1)
        more, found = len(found) > limit, found[:limit]
        last = TagKey(found[-1].posts_count, found[-1].id) if found else None
        return FoundTags(found, encode_tag_cursor(last) if more and last else None)
