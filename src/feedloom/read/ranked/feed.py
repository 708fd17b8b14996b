"""GET /v1/feed?order=ranked: the ranked home feed, a feed session at a time.

First page: candidate pool → features → rank (under a time budget) → re-rank → store the
ranked ID list as a feed session → hydrate the first page. Later pages: the stored list
from the cursor's offset, re-filtered at read time. Scores move between requests (new
likes, decay), so re-ranking per page would repeat and skip posts; the stored list
cannot. A post deleted or blocked since is dropped from its page, not replaced.
A ranker that fails or runs out of budget raises RankerFallback: the home feed then
serves the chronological page instead.

Beside the pool, a few recommendations from outside the people the reader follows
(ranked/out_of_network.py) are ranked with it and given a bounded share of the slots;
the session keeps their reasons, and their own read-time rule, for its later pages.

Reposts: the pool shows each original once, by the chronological feed's rule
(domain/reposts.py, through `visible`); the session holds entry IDs (a repost's own),
so its later pages show the same entries, "reposted by" as on the first.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from feedloom.domain.cursors import SessionCursor, encode_cursor
from feedloom.domain.errors import SessionExpired
from feedloom.domain.model import FeedItem, FeedOrder, Post
from feedloom.domain.reposts import ShownOriginals
from feedloom.domain.visibility import (
    FilterReason,
    ViewerContext,
    feed_filter,
    out_of_network_filter,
)
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
from feedloom.read.ranked.out_of_network import (
    OutOfNetwork,
    Reason,
    decode_reasons,
    encode_reasons,
    reasons_key,
)
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
        outside: OutOfNetwork,
    ) -> None:
        self._candidates, self._views, self._features = candidates, views, features
        self.outside = outside
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
        """`source`: a saved feed's candidates (read/feeds.py); the home feed's by default,
        the only one given recommendations from outside the people the reader follows."""
        now = self._clock()
        with timer.stage("candidates"):
            sources, recommended = await asyncio.gather(
                (source or self._candidates).gather(reader, None, self.config.rank_candidates),
                self.outside.gather(reader, now, enabled=source is None),
            )
            # The pool is the whole session: one original per session, by the chronological
            # feed's rule (the newest repost shows it, or the post itself just below it).
            pool = await self._visible(reader, list(sources), ShownOriginals())
            inside = {post.id for post in pool.posts} | {post.shown.id for post in pool.posts}
            outside = [post for post in recommended.posts if post.id not in inside]
        with timer.stage("features"):
            candidates = await self._features.of(reader.user_id, pool.posts + outside, now)
        with timer.stage("rank"):
            ranked = await self.ranker.rank(candidates, now)  # may raise RankerFallback
            ordered = rerank(
                ranked,
                reader.user_id,
                now,
                self.config.pin_own,
                {str(post.id) for post in outside},
                self.outside.config.share,
            )
        post_ids = [int(candidate.post_id) for candidate in ordered]
        by_id = {post.id: post for post in pool.posts + outside}
        served = [by_id[post_id] for post_id in post_ids[:limit]]
        reasons = {i: recommended.reasons[i] for i in post_ids if i in recommended.reasons}
        session, next_cursor = None, None
        if len(post_ids) > limit:
            session = secrets.token_urlsafe(12)
            await self._save(session_key(reader, session), post_ids, reasons)
            next_cursor = _next(reader, session, limit, served, None)
        with timer.stage("hydrate"):
            items = await self._hydrator.hydrate(
                reader.user_id, served, sources, hidden_commenters=reader.hidden_commenters
            )
            items = await self.outside.explained(items, reasons)
        items = with_scores(items, candidates, self.ranker.weights, now)
        self._log_served(reader, items, session, post_ids, now)
        return FeedPage(items, next_cursor, FeedOrder.RANKED, pool.filtered)

    async def session_page(
        self, reader: Reader, cursor: SessionCursor, limit: int, timer: StageTimer, explain: bool
    ) -> FeedPage:
        with timer.stage("session"):
            if cursor.reader is not None and cursor.reader != reader.user_id:
                raise SessionExpired("this ranked feed cursor belongs to another reader's feed")
            key = session_key(reader, cursor.session)
            stored, flat_reasons = await asyncio.gather(
                self._sessions.load(key), self._sessions.load(reasons_key(key))
            )
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
            reasons = decode_reasons(flat_reasons)
        with timer.stage("candidates"):
            page = await self._visible(reader, list(dict.fromkeys(window)), None, reasons)
        with timer.stage("hydrate"):
            sources = {post.id: source_by_relation(reader, post) for post in page.posts}
            items = await self._hydrator.hydrate(
                reader.user_id, page.posts, sources, hidden_commenters=reader.hidden_commenters
            )
            items = await self.outside.explained(items, reasons)
        if explain or self.feature_log is not None:
            # Scores are recomputed now for what this page shows; the order was fixed when
            # the session was ranked.
            items = await self._rescored(reader, items, page.posts, timer)
            self._log_served(reader, items, cursor.session, stored, self._clock())
        next_cursor = None
        if end < len(stored):
            next_cursor = _next(reader, cursor.session, end, page.posts, cursor.oldest)
        return FeedPage(items, next_cursor, FeedOrder.RANKED, page.filtered)

    async def _save(self, key: str, post_ids: Sequence[int], reasons: dict[int, Reason]) -> None:
        ttl = self.config.session_ttl_s
        saves = [self._sessions.save(key, post_ids, ttl)]
        if reasons:
            saves.append(self._sessions.save(reasons_key(key), encode_reasons(reasons), ttl))
        await asyncio.gather(*saves)

    async def _visible(
        self,
        reader: Reader,
        post_ids: Sequence[int],
        shown: ShownOriginals | None = None,
        recommended: Mapping[int, Reason] | None = None,
    ) -> Visible:
        """The posts of `post_ids` the reader may be shown: the home feed's rule, or the
        recommendations' own for the posts of a session that were recommended."""
        loaded = await self._views.posts(post_ids)
        accept = partial(_session_filter, reader.context, recommended or {})
        kept = visible(post_ids, loaded, accept, shown=shown)
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


def _session_filter(
    viewer: ViewerContext, recommended: Mapping[int, Reason], post: Post
) -> FilterReason | None:
    if post.id in recommended:
        return out_of_network_filter(viewer, post)
    return feed_filter(viewer, post)


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
