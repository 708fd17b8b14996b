"""GET /v1/feed: the reader's home timeline, one page at a time; and every other feed.

The home feed is the definition `HOME` (domain/feed_definitions.py); a list or a saved
feed is read by the same pipeline with a `FeedView`: other candidate sources, the
definition's filters on the reader's context, its order (read/feeds.py).

viewer (relations, order) → the chronological pipeline (chronological.py: candidates →
visible → page + keyset cursor → hydrate) or the ranked one (ranked/feed.py), which
falls back to the chronological page when the ranker fails or runs out of budget.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from feedloom.domain.cursors import Cursor, KeysetCursor, SessionCursor, decode_cursor
from feedloom.domain.feed_definitions import FeedFilters
from feedloom.domain.model import FeedOrder
from feedloom.metrics import Metrics
from feedloom.read.chronological import ChronologicalFeed
from feedloom.read.feed_order import FeedOrders
from feedloom.read.feed_page import FeedPage
from feedloom.read.feed_sources import CandidateSource
from feedloom.read.ranked.feed import RankedFeed
from feedloom.read.ranked.ranker import RankerFallback, SessionLost
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader, Readers


@dataclass(frozen=True, slots=True)
class FeedView:
    """What makes a feed other than home: its candidates and its filters. The members
    of the reader's exclusive lists that this feed reads (`shown`) stay in it; unfollowed
    authors it names (`also_from`) pass the follow check (never the visibility rules)."""

    source: CandidateSource | None = None
    filters: FeedFilters | None = None
    shown: frozenset[int] = frozenset()
    also_from: frozenset[int] = frozenset()
    anyone: bool = False  # a tag source: posts of anyone (never past the visibility rules)

    def applied_to(self, reader: Reader) -> Reader:
        context = replace(
            reader.context,
            filters=self.filters,
            left_home=reader.context.left_home - self.shown,
            also_from=self.also_from,
            anyone=self.anyone,
        )
        return replace(reader, context=context)


class HomeFeed:
    def __init__(
        self,
        orders: FeedOrders,
        readers: Readers,
        chronological: ChronologicalFeed,
        ranked: RankedFeed,
        metrics: Metrics,
        default_limit: int,
    ) -> None:
        self._orders, self._readers, self.default_limit = orders, readers, default_limit
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
        view: FeedView | None = None,
    ) -> FeedPage:
        limit = limit or self.default_limit
        decoded = decode_cursor(cursor) if cursor is not None else None
        with timer.stage("viewer"):
            reader = await self._readers.load(user_id)
            if view is not None:
                reader = view.applied_to(reader)
        source = view.source if view is not None else None
        page = await self._page(reader, limit, decoded, timer, order, explain, source)
        if cursor is None and not page.items:
            self._empty.inc()
        return page

    def served(self, page: FeedPage, seconds: float) -> None:
        """A page was served (rendered too) `seconds` after the request asked for it."""
        self._latency[page.order].observe(seconds)

    async def _page(
        self,
        reader: Reader,
        limit: int,
        decoded: Cursor | None,
        timer: StageTimer,
        order: FeedOrder | None,
        explain: bool,
        source: CandidateSource | None,
    ) -> FeedPage:
        if isinstance(decoded, SessionCursor):
            return await self._session_page(reader, decoded, limit, timer, explain, source)
        if self._orders.effective(reader.feed_order, order, decoded) is FeedOrder.RANKED:
            return await self._first_ranked_page(reader, limit, timer, source)
        keyset = decoded if isinstance(decoded, KeysetCursor) else None
        return await self.chronological.page(reader, keyset, limit, timer, source)

    async def _session_page(
        self,
        reader: Reader,
        cursor: SessionCursor,
        limit: int,
        timer: StageTimer,
        explain: bool,
        source: CandidateSource | None,
    ) -> FeedPage:
        try:
            return await self.ranked.session_page(reader, cursor, limit, timer, explain)
        except SessionLost as lost:  # the session store is down or was emptied
            before = KeysetCursor(lost.before)
            page = await self.chronological.page(reader, before, limit, timer, source)
            page.fallback = "session_lost"
            return page

    async def _first_ranked_page(
        self, reader: Reader, limit: int, timer: StageTimer, source: CandidateSource | None
    ) -> FeedPage:
        try:
            return await self.ranked.first_page(reader, limit, timer, source)
        except RankerFallback as fallback:
            page = await self.chronological.page(reader, None, limit, timer, source)
            page.fallback = fallback.reason
            return page
