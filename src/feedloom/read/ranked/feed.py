"""GET /v1/feed?order=ranked: the ranked home feed, a feed session at a time.

First page: candidate pool → features → rank (under a time budget) → re-rank → store the
ranked ID list as a feed session → hydrate the first page. Later pages: the stored list
from the cursor's offset, re-filtered at read time. Scores move between requests (new
likes, decay), so re-ranking per page would repeat and skip posts; the stored list
cannot. A post deleted or blocked since is dropped from its page, not replaced.
A ranker that fails or runs out of budget raises RankerFallback: the home feed then
serves the chronological page instead.

Reposts: the pool shows each original once, by the chronological feed's rule
(domain/reposts.py, through `visible`); the session holds entry IDs (a repost's own),
so its later pages show the same entries, "reposted by" as on the first.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from feedloom.domain.cursors import SessionCursor, encode_cursor
from feedloom.domain.errors import SessionExpired
from feedloom.domain.model import FeedItem, FeedOrder, Post
from feedloom.domain.reposts import ShownOriginals
from feedloom.domain.visibility import feed_filter
from feedloom.lookups.cached_views import Views
from feedloom.metrics import Metrics
from feedloom.ports import Clock, FeedSessionStore
from feedloom.ranking.rerank import drop_seen
from feedloom.read.candidates import Candidates
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.feed_sources import CandidateSource
from feedloom.read.hydrate import Hydrator
from feedloom.read.ranked.candidates import Features, source_by_relation, with_scores
from feedloom.read.ranked.feature_log import FeatureLog
from feedloom.read.ranked.ranker import BudgetedRanker, SessionLost, rerank
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader
from feedloom.read.visible import Visible, visible


@dataclass(frozen=True, slots=True)
class RankedConfig:
    rank_candidates: int  # posts ranked per session
    session_ttl_s: int
    pin_own: timedelta  # own posts this fresh stay on top


class RankedFeed:
    """`config`, `ranker` and `feature_log` are public so operators' experiments (and
    tests) can change them on a running feed."""

    def __init__(
        self,
        candidates: Candidates,
        views: Views,
        features: Features,
        ranker: BudgetedRanker,
        sessions: FeedSessionStore,
        hydrator: Hydrator,
        metrics: Metrics,
        clock: Clock,
        config: RankedConfig,
        feature_log: FeatureLog | None,
    ) -> None:
        self._candidates, self._views, self._features = candidates, views, features
        self.ranker, self._sessions, self._hydrator = ranker, sessions, hydrator
        self._metrics, self._clock = metrics, clock
        self.config, self.feature_log = config, feature_log

    async def first_page(
        self,
        reader: Reader,
        limit: int,
        timer: StageTimer,
        source: CandidateSource | None = None,
    ) -> FeedPage:
        """`source`: a saved feed's candidates (read/feeds.py); the home feed's by default."""
        with timer.stage("candidates"):
            gather = (source or self._candidates).gather
            sources = await gather(reader, None, self.config.rank_candidates)
            # The pool is the whole session: one original per session, by the chronological
            # feed's rule (the newest repost shows it, or the post itself just below it).
            pool = await self._visible(reader, list(sources), ShownOriginals())
        now = self._clock()
        with timer.stage("features"):
            candidates = await self._features.of(reader.user_id, pool.posts, now)
        with timer.stage("rank"):
            ranked = await self.ranker.rank(candidates, now)  # may raise RankerFallback
            ordered = rerank(ranked, reader.user_id, now, self.config.pin_own)
        post_ids = [int(candidate.post_id) for candidate in ordered]
        by_id = {post.id: post for post in pool.posts}
        served = [by_id[post_id] for post_id in post_ids[:limit]]
        session, next_cursor = None, None
        if len(post_ids) > limit:
            session = secrets.token_urlsafe(12)
            ttl = self.config.session_ttl_s
            await self._sessions.save(session_key(reader, session), post_ids, ttl)
            next_cursor = _next(reader, session, limit, served, None)
        with timer.stage("hydrate"):
            items = await self._hydrator.hydrate(
                reader.user_id, served, sources, hidden_commenters=reader.hidden_commenters
            )
        items = with_scores(items, candidates, self.ranker.weights, now)
        self._log_served(reader, items, session, post_ids, now)
        return FeedPage(items, next_cursor, FeedOrder.RANKED, pool.filtered)

    async def session_page(
        self, reader: Reader, cursor: SessionCursor, limit: int, timer: StageTimer, explain: bool
    ) -> FeedPage:
        with timer.stage("session"):
            if cursor.reader is not None and cursor.reader != reader.user_id:
                raise SessionExpired("this ranked feed cursor belongs to another reader's feed")
            stored = await self._sessions.load(session_key(reader, cursor.session))
            if stored is None:
                if cursor.oldest is not None:  # lost, not expired: go on in time order
                    raise SessionLost(cursor.oldest)
                raise SessionExpired(
                    "this ranked feed session has expired (or never existed): reload the top "
                    "of the feed, GET /v1/feed?order=ranked without a cursor"
                )
            end = cursor.offset + limit
            # The list holds each post once, but a page must never repeat one whatever a
            # session store hands back: leave out what earlier pages of it covered.
            seen = set(map(str, stored[: cursor.offset]))
            window = drop_seen(stored[cursor.offset : end], seen, str)
        with timer.stage("candidates"):
            page = await self._visible(reader, list(dict.fromkeys(window)))
        with timer.stage("hydrate"):
            sources = {post.id: source_by_relation(reader, post) for post in page.posts}
            items = await self._hydrator.hydrate(
                reader.user_id, page.posts, sources, hidden_commenters=reader.hidden_commenters
            )
        if explain or self.feature_log is not None:
            # Scores are recomputed now for what this page shows; the order was fixed when
            # the session was ranked.
            items = await self._rescored(reader, items, page.posts, timer)
            self._log_served(reader, items, cursor.session, stored, self._clock())
        next_cursor = None
        if end < len(stored):
            next_cursor = _next(reader, cursor.session, end, page.posts, cursor.oldest)
        return FeedPage(items, next_cursor, FeedOrder.RANKED, page.filtered)

    async def _visible(
        self, reader: Reader, post_ids: Sequence[int], shown: ShownOriginals | None = None
    ) -> Visible:
        loaded = await self._views.posts(post_ids)
        kept = visible(post_ids, loaded, partial(feed_filter, reader.context), shown=shown)
        count_filtered(self._metrics, kept.filtered)
        return kept

    async def _rescored(
        self, reader: Reader, items: list[FeedItem], posts: Sequence[Post], timer: StageTimer
    ) -> list[FeedItem]:
        now = self._clock()
        with timer.stage("features"):
            candidates = await self._features.of(reader.user_id, posts, now)
        return with_scores(items, candidates, self.ranker.weights, now)

    def _log_served(
        self,
        reader: Reader,
        items: Sequence[FeedItem],
        session: str | None,
        ranked_ids: Sequence[int],
        now: datetime,
    ) -> None:
        """Log each served item with its position in the whole ranked list."""
        if self.feature_log is None:
            return
        positions = {post_id: index for index, post_id in enumerate(ranked_ids)}
        self.feature_log.record(
            {
                "reader": str(reader.user_id),
                "post": str(item.post.id),
                "author": str(item.post.author_id),
                "position": positions[item.entry_id],
                "score": item.score,
                "components": item.extra,
                "source": item.source,
                "session": session,
                "served_at": now.isoformat(),
            }
            for item in items
        )


def session_key(reader: Reader, session: str) -> str:
    """Sessions are stored per reader: someone else's cursor finds nothing (410)."""
    return f"{reader.user_id}:{session}"


def _next(
    reader: Reader, session: str, offset: int, served: Sequence[Post], oldest: int | None
) -> str:
    """The cursor of a session's next page: where it goes on, and below which post the
    feed continues in time order if the session is lost."""
    shown = [post.id for post in served]
    if oldest is not None:
        shown.append(oldest)
    lowest = min(shown) if shown else None
    return encode_cursor(SessionCursor(session, offset, lowest, reader.user_id))
