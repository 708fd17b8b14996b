"""The chronological home feed: candidates → visible → page + keyset cursor → hydrate."""

from __future__ import annotations

from functools import partial

from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import feed_filter
from feedloom.metrics import Metrics
from feedloom.read.candidates import Candidates, Head
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader
from feedloom.read.visible import PageFill


class ChronologicalFeed:
    def __init__(self, candidates: Candidates, hydrator: Hydrator, metrics: Metrics) -> None:
        self._candidates, self._hydrator, self._metrics = candidates, hydrator, metrics

    async def head(self, user_id: int, before: int | None, limit: int) -> Head:
        """What `page` will read first, read before the reader is known."""
        return await self._candidates.head(user_id, before, PageFill(before, limit).want)

    async def page(
        self,
        reader: Reader,
        before: int | None,
        limit: int,
        timer: StageTimer,
        head: Head | None = None,
    ) -> FeedPage:
        with timer.stage("candidates"):
            fill, loaded = PageFill(before, limit), Loaded()
            accept = partial(feed_filter, reader.context)
            while not fill.done:
                gather = self._candidates.gather
                candidates = await gather(reader, fill.cursor, fill.want, head)
                head = None  # only the first gather's
                for chunk in fill.chunks(candidates):
                    likely = self._hydrator.likely_in_feed(reader.context, chunk, fill.missing)
                    views = await self._hydrator.views(reader.user_id, chunk, loaded, likely)
                    fill.take(candidates, chunk, views, accept)
                fill.advance(candidates)
        count_filtered(self._metrics, fill.kept.filtered)
        with timer.stage("hydrate"):
            items = await self._hydrator.hydrate(
                reader.user_id, fill.kept.posts, fill.sources, loaded, reader.hidden_commenters
            )
        after = fill.next_cursor()
        next_cursor = encode_cursor(KeysetCursor(after)) if after is not None else None
        return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, fill.kept.filtered)
