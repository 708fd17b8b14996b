"""GET /v1/tags/{tag}, GET /v1/tags/{tag}/posts and GET /v1/me/tags: a tag as one reader
sees it.

A tag's page is the tag's live public posts newest first (one range of `post_tags`),
held to the reader's filters like a feed page: blocked either way, muted, suspended
or held posts are left out (`domain/visibility.py`, `public_filter`), with a keyset
cursor. Whether the reader follows the tag comes from their cached relations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.facets import tag_name
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import public_filter
from feedloom.lookups.reader_state import FOLLOWED_TAGS
from feedloom.metrics import Metrics
from feedloom.ports import TagRecord, TagStore
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.viewer import Readers
from feedloom.read.visible import PageFill

TAG_PAGE = "tag"


@dataclass(frozen=True, slots=True)
class TagView:
    name: str
    posts_count: int
    followed_by_me: bool


class TagPages:
    def __init__(
        self, tags: TagStore, readers: Readers, hydrator: Hydrator, metrics: Metrics
    ) -> None:
        self._tags, self._readers, self._hydrator, self._metrics = tags, readers, hydrator, metrics

    async def tag(self, viewer_id: int, raw: str) -> TagView:
        name = tag_name(raw)
        found = (await self._tags.tags([name])).get(name)
        reader = await self._readers.load(viewer_id)
        count = found.posts_count if found is not None else 0
        return TagView(name, count, name in reader.context.tags)

    async def followed(self, viewer_id: int) -> list[TagView]:
        return [_followed(tag) for tag in await self._tags.followed(viewer_id, FOLLOWED_TAGS)]

    async def page(self, viewer_id: int, raw: str, limit: int, cursor: str | None) -> FeedPage:
        name = tag_name(raw)
        fill = PageFill(keyset_before(cursor), limit)
        found = (await self._tags.tags([name])).get(name)
        if found is None:
            return FeedPage([], None, FeedOrder.CHRONOLOGICAL, fill.kept.filtered)
        reader = await self._readers.load(viewer_id)
        accept, loaded = partial(public_filter, reader.context), Loaded()
        while not fill.done:
            ids = await self._tags.tag_post_ids(found.id, fill.cursor, fill.want)
            candidates = dict.fromkeys(ids, TAG_PAGE)
            for chunk in fill.chunks(candidates):
                views = await self._hydrator.views(viewer_id, chunk, loaded)
                fill.take(candidates, chunk, views, accept)
            fill.advance(candidates)
        count_filtered(self._metrics, fill.kept.filtered)
        items = await self._hydrator.hydrate(
            viewer_id, fill.kept.posts, fill.sources, loaded, reader.hidden_commenters
        )
        after = fill.next_cursor()
        next_cursor = encode_cursor(KeysetCursor(after)) if after is not None else None
        return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, fill.kept.filtered)


def _followed(tag: TagRecord) -> TagView:
    return TagView(tag.name, tag.posts_count, followed_by_me=True)
