"""GET /v1/users/{id}/posts, GET /v1/users/{id} and GET /v1/posts/{id}: profiles and
posts as one viewer may see them."""

from __future__ import annotations

from functools import partial

from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.errors import NotFound
from feedloom.domain.model import FeedItem, FeedOrder, UserProfile
from feedloom.domain.timeline import older_than
from feedloom.domain.visibility import profile_filter
from feedloom.lookups.access import Access
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.metrics import Metrics
from feedloom.ports import PostArchive
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.visible import PageFill

AUTHOR = "author"


class AuthorPosts:
    def __init__(
        self,
        access: Access,
        author_timelines: AuthorTimelines,
        archive: PostArchive,
        hydrator: Hydrator,
        metrics: Metrics,
        page_cap: int,
    ) -> None:
        self._access, self._author_timelines, self._archive = access, author_timelines, archive
        self._hydrator, self._metrics = hydrator, metrics
        self._page_cap = page_cap  # no page longer than an author timeline

    async def profile(self, viewer_id: int, user_id: int) -> UserProfile:
        return await self._access.visible_profile(viewer_id, user_id)

    async def post(self, viewer_id: int, post_id: int) -> FeedItem:
        post = await self._access.visible_post(viewer_id, post_id)
        hidden = await self._access.hidden_commenters(viewer_id)
        items = await self._hydrator.hydrate(
            viewer_id, [post], {post_id: "direct"}, hidden_commenters=hidden
        )
        if not items:
            raise NotFound("no such post")
        return items[0]

    async def page(
        self, viewer_id: int, author_id: int, limit: int, cursor: str | None
    ) -> FeedPage:
        await self._access.visible_profile(viewer_id, author_id)
        viewer = await self._access.viewer_of(viewer_id, author_id)
        fill, loaded = PageFill(keyset_before(cursor), min(limit, self._page_cap)), Loaded()
        accept = partial(profile_filter, viewer)
        while not fill.done:
            candidates = dict.fromkeys(await self._ids(author_id, fill.cursor, fill.want), AUTHOR)
            for chunk in fill.chunks(candidates):
                views = await self._hydrator.views(viewer_id, chunk, loaded)
                fill.take(candidates, chunk, views, accept)
            fill.advance(candidates)
        count_filtered(self._metrics, fill.kept.filtered)
        hidden = await self._access.hidden_commenters(viewer_id)
        items = await self._hydrator.hydrate(
            viewer_id, fill.kept.posts, fill.sources, loaded, hidden
        )
        after = fill.next_cursor()
        next_cursor = encode_cursor(KeysetCursor(after)) if after is not None else None
        return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, fill.kept.filtered)

    async def _ids(self, author_id: int, before: int | None, count: int) -> list[int]:
        recent = older_than(await self._author_timelines.recent_of(author_id), before)
        if len(recent) < count:  # beyond the cached author timeline: the store
            recent = await self._archive.post_ids_by_authors([author_id], before, None, count)
        return recent[:count]
