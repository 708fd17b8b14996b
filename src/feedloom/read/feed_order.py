"""Which order a feed request is served in: chronological or ranked.

Precedence: a cursor continues the order it was issued in (a keyset cursor a
chronological feed, a session cursor a ranked one) whatever `order` says: switching
orders mid-scroll would repeat or skip posts, and a ranked request that fell back to
chronological hands out a keyset cursor the client will send back with order=ranked.
Without a cursor: the request's `order`, else the account's setting, else
`feed.default_order`. The response's `order` always says what was served.
"""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.cursors import Cursor, KeysetCursor
from feedloom.domain.model import FeedOrder


def order_of_cursor(requested: FeedOrder | None, cursor: Cursor | None) -> FeedOrder | None:
    """The order the cursor or the request pins down; None when neither does."""
    if cursor is None:
        return requested
    return FeedOrder.CHRONOLOGICAL if isinstance(cursor, KeysetCursor) else FeedOrder.RANKED


async def effective_order(
    backend: Backend, user_id: int, requested: FeedOrder | None, cursor: Cursor | None
) -> FeedOrder:
    pinned = order_of_cursor(requested, cursor)
    if pinned is not None:
        return pinned
    return (await feed_preferences(backend, user_id))[1]


async def feed_preferences(backend: Backend, user_id: int) -> tuple[FeedOrder | None, FeedOrder]:
    """The account's own choice (None: none made) and the order it gets by default."""
    chosen = await backend.accounts.feed_order(user_id)
    return chosen, chosen or backend.settings.feed.default_order


async def change_feed_order(backend: Backend, user_id: int, order: FeedOrder | None) -> None:
    """None clears the account's choice, so `feed.default_order` applies again."""
    await backend.accounts.set_feed_order(user_id, order)
