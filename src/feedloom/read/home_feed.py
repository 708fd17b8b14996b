"""GET /v1/feed: the reader's home timeline, one page at a time.

viewer (relations, order) → the chronological pipeline (chronological.py: candidates →
visible → page + keyset cursor → hydrate) or the ranked one (ranked/feed.py), which
falls back to the chronological page when the ranker fails or runs out of budget.

When the request will most likely be served in time order, the head of the reader's
candidates and their recent likes are read together with their relations (one round
trip against Redis); a reader who turns out to want the ranked feed just leaves them
unused. A page is one read
for the caches that keep values near (ports.ReadFreshness): they make sure they are
fresh as it begins, beside that round trip, so a page whose views are all kept near
waits for no other.
"""

from __future__ import annotations

from feedloom.domain.cursors import Cursor, KeysetCursor, SessionCursor, decode_cursor
from feedloom.domain.model import FeedOrder
from feedloom.lookups.concurrency import Concurrency
from feedloom.metrics import Metrics
from feedloom.ports import ReadFreshness
from feedloom.read.chronological import ChronologicalFeed, Opening
from feedloom.read.feed_order import FeedOrders
from feedloom.read.feed_page import FeedPage
from feedloom.read.ranked.feed import RankedFeed
from feedloom.read.ranked.ranker import RankerFallback
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader, Readers


class HomeFeed:
    def __init__(
        self,
        orders: FeedOrders,
        readers: Readers,
        chronological: ChronologicalFeed,
        ranked: RankedFeed,
        metrics: Metrics,
        default_limit: int,
        concurrency: Concurrency,
        freshness: ReadFreshness,
    ) -> None:
        self._orders, self._readers, self._default_limit = orders, readers, default_limit
        self._concurrency, self._freshness = concurrency, freshness
        self.chronological, self.ranked = chronological, ranked
        self._empty = metrics.feed_empty
        self._latency = {order: metrics.feed_latency.labels(order.value) for order in FeedOrder}

    async def page(
        self,
        user_id: int,
        limit: int | None,
        cursor: str | None,
        timer: StageTimer,
        order: FeedOrder | None = None,
        *,
        explain: bool = False,
    ) -> FeedPage:
        limit = limit or self._default_limit
        decoded = decode_cursor(cursor) if cursor is not None else None
        with self._freshness.read():
            page = await self._page(user_id, limit, decoded, timer, order, explain)
        if cursor is None and not page.items:
            self._empty.inc()
        return page

    def served(self, page: FeedPage, seconds: float) -> None:
        """A page was served (rendered too) `seconds` after the request asked for it."""
        self._latency[page.order].observe(seconds)

    async def _page(
        self,
        user_id: int,
        limit: int,
        decoded: Cursor | None,
        timer: StageTimer,
        order: FeedOrder | None,
        explain: bool,
    ) -> FeedPage:
        before = decoded.before if isinstance(decoded, KeysetCursor) else None
        with timer.stage("viewer"):
            reader, opening = await self._reader_and_opening(user_id, before, limit, order, decoded)
            chosen = self._orders.effective(reader.feed_order, order, decoded)
        if isinstance(decoded, SessionCursor):
            page = await self.ranked.session_page(reader, decoded, limit, timer, explain)
        elif chosen is FeedOrder.RANKED:
            page = await self._first_ranked_page(reader, limit, timer)
        else:
            page = await self.chronological.page(reader, before, limit, timer, opening)
        return page

    async def _reader_and_opening(
        self,
        user_id: int,
        before: int | None,
        limit: int,
        order: FeedOrder | None,
        cursor: Cursor | None,
    ) -> tuple[Reader, Opening | None]:
        if self._orders.effective(None, order, cursor) is not FeedOrder.CHRONOLOGICAL:
            return await self._readers.load(user_id), None
        return await self._concurrency.two(
            self._readers.load(user_id), self.chronological.opening(user_id, before, limit)
        )

    async def _first_ranked_page(self, reader: Reader, limit: int, timer: StageTimer) -> FeedPage:
        try:
            return await self.ranked.first_page(reader, limit, timer)
        except RankerFallback as fallback:
            page = await self.chronological.page(reader, None, limit, timer)
            page.fallback = fallback.reason
            return page
