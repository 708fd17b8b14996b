"""The chronological home feed: candidates → visible → page + keyset cursor → hydrate.

Its `opening` (the head of the candidates and the reader's recent likes) needs only
the reader's ID: read/home_feed.py reads it with the reader's relations, in one round
trip against Redis."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import feed_filter
from feedloom.lookups.concurrency import Concurrency
from feedloom.lookups.likes import Likes, RecentLikes
from feedloom.metrics import Metrics
from feedloom.read.candidates import Candidates, Head
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader
from feedloom.read.visible import PageFill


@dataclass(frozen=True, slots=True)
class Opening:
    """What a page reads first, before the reader's relations are known: the head of
    its candidates, and what the reader liked lately (for liked_by_me)."""

    head: Head
    likes: RecentLikes


class ChronologicalFeed:
    def __init__(
        self,
        candidates: Candidates,
        hydrator: Hydrator,
        likes: Likes,
        metrics: Metrics,
        concurrency: Concurrency,
    ) -> None:
        self._candidates, self._hydrator, self._likes = candidates, hydrator, likes
        self._metrics, self._concurrency = metrics, concurrency

    async def opening(self, user_id: int, before: int | None, limit: int) -> Opening:
        head, likes = await self._concurrency.two(
            self._candidates.head(user_id, before, PageFill(before, limit).want),
            self._likes.recent(user_id),
        )
        return Opening(head, likes)

    async def page(
        self,
        reader: Reader,
        before: int | None,
        limit: int,
        timer: StageTimer,
        opening: Opening | None = None,
    ) -> FeedPage:
        head = opening.head if opening is not None else None
        with timer.stage("candidates"):
            fill = PageFill(before, limit)
            loaded = Loaded(recent_likes=opening.likes if opening is not None else None)
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
