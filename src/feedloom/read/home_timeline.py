"""GET /v1/feed: the reader's home timeline, one page at a time.

viewer relations → candidates (pushed, pulled, own, archive) → read-time filters →
order → hydrate → page + cursor.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from feedloom.backend import Backend
from feedloom.domain.cursors import KeysetCursor, decode_cursor, encode_cursor
from feedloom.domain.errors import BadCursor
from feedloom.domain.model import FeedItem, FeedOrder
from feedloom.domain.visibility import feed_filter
from feedloom.read.candidates import gather_candidates
from feedloom.read.hydrate import hydrate
from feedloom.read.pagination import collect_visible
from feedloom.read.timing import StageTimer
from feedloom.read.viewer import Reader, load_reader


@dataclass
class FeedPage:
    items: list[FeedItem]
    next_cursor: str | None
    order: FeedOrder
    filtered: Counter[str] = field(default_factory=Counter)


async def home_timeline(
    backend: Backend, user_id: int, limit: int, cursor: str | None, timer: StageTimer
) -> FeedPage:
    before = _keyset(cursor)
    with timer.stage("viewer"):
        reader = await load_reader(backend, user_id)
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
