"""GET /v1/feed: the reader's home timeline, one page at a time.

viewer relations → order (feed_order.py) → chronological: candidates (pushed, pulled,
own, archive) → read-time filters → hydrate → page + keyset cursor; or ranked (see
ranked_feed.py) → page + feed-session cursor.
"""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.cursors import KeysetCursor, SessionCursor, decode_cursor, encode_cursor
from feedloom.domain.errors import BadCursor
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import feed_filter
from feedloom.read.candidates import gather_candidates
from feedloom.read.feed_order import effective_order
from feedloom.read.feed_page import FeedPage as FeedPage
from feedloom.read.hydrate import hydrate
from feedloom.read.pagination import collect_visible
from feedloom.read.ranked_feed import ranked_page
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader, load_reader


async def home_timeline(
    backend: Backend,
    user_id: int,
    limit: int,
    cursor: str | None,
    timer: StageTimer,
    order: FeedOrder | None = None,
    *,
    explain: bool = False,
) -> FeedPage:
    decoded = decode_cursor(cursor) if cursor is not None else None
    with timer.stage("viewer"):
        chosen = await effective_order(backend, user_id, order, decoded)
        reader = await load_reader(backend, user_id)
    if chosen is FeedOrder.RANKED:
        assert decoded is None or isinstance(decoded, SessionCursor)  # effective_order checked
        page = await ranked_page(
            backend,
            reader,
            decoded,
            limit,
            timer,
            explain=explain,
            chronological=lambda: chronological_page(backend, reader, None, limit, timer),
        )
    else:
        before = decoded.before if isinstance(decoded, KeysetCursor) else None
        page = await chronological_page(backend, reader, before, limit, timer)
    if cursor is None and not page.items:
        backend.metrics.feed_empty.inc()
    return page


async def chronological_page(
    backend: Backend, reader: Reader, before: int | None, limit: int, timer: StageTimer
) -> FeedPage:
    async def fetch(cursor: int | None, count: int) -> dict[int, str]:
        return await gather_candidates(backend, reader, cursor, count)

    with timer.stage("candidates"):
        collected = await collect_visible(
            backend, fetch, lambda post: feed_filter(reader.context, post), before, limit
        )
    with timer.stage("hydrate"):
        items = await hydrate(backend, reader.user_id, collected.posts, collected.sources)
    next_cursor = None
    if collected.posts and not collected.exhausted:
        next_cursor = encode_cursor(KeysetCursor(before=collected.posts[-1].id))
    return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, collected.filtered)


def _keyset(cursor: str | None) -> int | None:
    if cursor is None:
        return None
    decoded = decode_cursor(cursor)
    if not isinstance(decoded, KeysetCursor):
        raise BadCursor("this cursor belongs to a ranked feed session; use order=ranked")
    return decoded.before
