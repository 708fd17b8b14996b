"""The chronological home feed: candidates → visible → page + keyset cursor → hydrate.

The cursor carries, beside its keyset, the originals this scroll showed through
reposts, so the next page does not show them again (domain/reposts.py)."""

from __future__ import annotations

from functools import partial

from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.model import FeedOrder
from feedloom.domain.reposts import ShownOriginals
from feedloom.domain.visibility import feed_filter
from feedloom.metrics import Metrics
from feedloom.read.candidates import Candidates
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.feed_sources import CandidateSource
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader
from feedloom.read.visible import PageFill


class ChronologicalFeed:
    def __init__(self, candidates: Candidates, hydrator: Hydrator, metrics: Metrics) -> None:
        self._candidates, self._hydrator, self._metrics = candidates, hydrator, metrics

    async def page(
        self,
        reader: Reader,
        keyset: KeysetCursor | None,
        limit: int,
        timer: StageTimer,
        source: CandidateSource | None = None,
    ) -> FeedPage:
        """`source`: a saved feed's candidates (read/feeds.py); the home feed's by default."""
        gather = (source or self._candidates).gather
        with timer.stage("candidates"):
            before, shown = (keyset.before, keyset.shown) if keyset is not None else (None, ())
            fill = PageFill(before, limit, ShownOriginals(shown))
            loaded = Loaded()
            accept = partial(feed_filter, reader.context)
            while not fill.done:
                candidates = await gather(reader, fill.cursor, fill.want)
                for chunk in fill.chunks(candidates):
                    views = await self._hydrator.views(reader.user_id, chunk, loaded)
                    fill.take(candidates, chunk, views, accept)
                fill.advance(candidates)
        count_filtered(self._metrics, fill.kept.filtered)
        with timer.stage("hydrate"):
            items = await self._hydrator.hydrate(
                reader.user_id, fill.kept.posts, fill.sources, loaded, reader.hidden_commenters
            )
        after = fill.next_cursor()
        next_cursor = None
        if after is not None:
            next_cursor = encode_cursor(KeysetCursor(after, fill.shown.carry(after)))
        return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, fill.kept.filtered)
