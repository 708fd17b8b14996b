"""GET /v1/feed?order=ranked: the ranked home feed, a feed session at a time.

First page: candidate pool → features → rank (under a time budget) → re-rank → store the
ranked ID list as a feed session → hydrate the first page. Later pages: the stored list
from the cursor's offset, re-filtered at read time. Scores move between requests (new
likes, decay), so re-ranking per page would repeat and skip posts; the stored list
cannot. A post deleted or blocked since is dropped from its page, not replaced.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from feedloom.backend import Backend
from feedloom.domain.cursors import SessionCursor, encode_cursor
from feedloom.domain.errors import SessionExpired
from feedloom.domain.model import FeedItem, FeedOrder
from feedloom.ranking.rerank import drop_seen
from feedloom.read.feed_page import FeedPage
from feedloom.read.hydrate import hydrate
from feedloom.read.ranked_candidates import (
    candidate_pool,
    features_of,
    source_by_relation,
    visible_posts,
    weights_of,
    with_scores,
)
from feedloom.read.ranker import RankerFallback, rank_within_budget, rerank
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader

Fallback = Callable[[], Awaitable[FeedPage]]


async def ranked_page(
    backend: Backend,
    reader: Reader,
    cursor: SessionCursor | None,
    limit: int,
    timer: StageTimer,
    *,
    explain: bool,
    chronological: Fallback,
) -> FeedPage:
    if cursor is None:
        return await first_ranked_page(backend, reader, limit, timer, chronological)
    return await session_page(backend, reader, cursor, limit, timer, explain)


async def first_ranked_page(
    backend: Backend, reader: Reader, limit: int, timer: StageTimer, chronological: Fallback
) -> FeedPage:
    feed = backend.settings.feed
    with timer.stage("candidates"):
        pool = await candidate_pool(backend, reader)
    now = backend.clock()
    with timer.stage("features"):
        candidates = await features_of(backend, reader.user_id, list(pool.posts.values()), now)
    try:
        with timer.stage("rank"):
            ranked = await rank_within_budget(backend, candidates, now)
            ordered = rerank(ranked, reader.user_id, now, timedelta(seconds=feed.pin_own_s))
    except RankerFallback as fallback:
        page = await chronological()
        page.fallback = fallback.reason
        return page
    post_ids = [int(candidate.post_id) for candidate in ordered]
    session, next_cursor = None, None
    if len(post_ids) > limit:
        session = secrets.token_urlsafe(12)
        await backend.sessions.save(session_key(reader, session), post_ids, feed.session_ttl_s)
        next_cursor = encode_cursor(SessionCursor(session=session, offset=limit))
    with timer.stage("hydrate"):
        served = [pool.posts[post_id] for post_id in post_ids[:limit]]
        items = await hydrate(backend, reader.user_id, served, pool.sources)
    by_id = {int(candidate.post_id): candidate for candidate in candidates}
    items = with_scores(items, by_id, weights_of(backend), now)
    log_served(backend, reader, items, session, post_ids, now)
    return FeedPage(items, next_cursor, FeedOrder.RANKED, pool.filtered)


async def session_page(
    backend: Backend,
    reader: Reader,
    cursor: SessionCursor,
    limit: int,
    timer: StageTimer,
    explain: bool,
) -> FeedPage:
    with timer.stage("session"):
        stored = await backend.sessions.load(session_key(reader, cursor.session))
        if stored is None:
            raise SessionExpired(
                "this ranked feed session has expired (or never existed): reload the top "
                "of the feed, GET /v1/feed?order=ranked without a cursor"
            )
        end = cursor.offset + limit
        # The list holds each post once, but a page must never repeat one whatever a
        # session store hands back: leave out what earlier pages of it covered.
        window = drop_seen(stored[cursor.offset : end], set(map(str, stored[: cursor.offset])), str)
    with timer.stage("candidates"):
        posts, filtered = await visible_posts(backend, reader, list(dict.fromkeys(window)))
    with timer.stage("hydrate"):
        sources = {post.id: source_by_relation(reader, post) for post in posts}
        items = await hydrate(backend, reader.user_id, posts, sources)
    if explain or backend.feature_log is not None:
        # Scores are recomputed now for what this page shows; the order was fixed when
        # the session was ranked.
        now = backend.clock()
        with timer.stage("features"):
            candidates = await features_of(backend, reader.user_id, posts, now)
        by_id = {int(candidate.post_id): candidate for candidate in candidates}
        items = with_scores(items, by_id, weights_of(backend), now)
        log_served(backend, reader, items, cursor.session, stored, now)
    next_cursor = None
    if end < len(stored):
        next_cursor = encode_cursor(SessionCursor(session=cursor.session, offset=end))
    return FeedPage(items, next_cursor, FeedOrder.RANKED, filtered)


def session_key(reader: Reader, session: str) -> str:
    """Sessions are stored per reader: someone else's cursor finds nothing (410)."""
    return f"{reader.user_id}:{session}"


def log_served(
    backend: Backend,
    reader: Reader,
    items: Sequence[FeedItem],
    session: str | None,
    ranked_ids: Sequence[int],
    now: datetime,
) -> None:
    """Log each served item with its position in the whole ranked list."""
    if backend.feature_log is None:
        return
    positions = {post_id: index for index, post_id in enumerate(ranked_ids)}
    backend.feature_log.record(
        {
            "reader": str(reader.user_id),
            "post": str(item.post.id),
            "author": str(item.post.author_id),
            "position": positions[item.post.id],
            "score": item.score,
            "components": item.extra,
            "source": item.source,
            "session": session,
            "served_at": now.isoformat(),
        }
        for item in items
    )
