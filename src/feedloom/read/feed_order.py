"""Which order a feed request is served in: chronological or ranked.

Precedence: the request's `order`, else the order the cursor belongs to (a keyset
cursor continues a chronological feed, a session cursor a ranked one), else the
account's setting, else `feed.default_order`. A cursor contradicting an explicit
`order` is refused: continuing it in the other order would repeat or skip posts.
"""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.cursors import Cursor, KeysetCursor
from feedloom.domain.errors import BadCursor
from feedloom.domain.model import FeedOrder


def order_of_cursor(requested: FeedOrder | None, cursor: Cursor | None) -> FeedOrder | None:
    """The order the request or its cursor pins down; None when neither does."""
    if cursor is None:
        return requested
    implied = FeedOrder.CHRONOLOGICAL if isinstance(cursor, KeysetCursor) else FeedOrder.RANKED
    if requested is not None and requested is not implied:
        raise BadCursor(
            f"this cursor continues a {implied.value} feed, not a {requested.value} one: "
            f"send it with order={implied.value} (or without order), "
            f"or drop the cursor to start a {requested.value} feed from the top"
        )
    return implied


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
