"""Which order a feed request is served in: chronological or ranked.

Precedence: a cursor continues the order it was issued in (a keyset cursor a
chronological feed, a session cursor a ranked one) whatever `order` says: switching
orders mid-scroll would repeat or skip posts, and a ranked request that fell back to
chronological hands out a keyset cursor the client will send back with order=ranked.
Without a cursor: the request's `order`, else the account's setting, else
`feed.default_order`. The response's `order` always says what was served.
"""

from __future__ import annotations

from feedloom.domain.cursors import Cursor, KeysetCursor
from feedloom.domain.model import FeedOrder
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import PreferenceStore


def order_of_cursor(requested: FeedOrder | None, cursor: Cursor | None) -> FeedOrder | None:
    """The order the cursor or the request pins down; None when neither does."""
    if cursor is None:
        return requested
    return FeedOrder.CHRONOLOGICAL if isinstance(cursor, KeysetCursor) else FeedOrder.RANKED


class FeedOrders:
    def __init__(
        self, preferences: PreferenceStore, states: ReaderStates, default_order: FeedOrder
    ) -> None:
        self._preferences, self._states, self._default = preferences, states, default_order

    def effective(
        self, chosen: FeedOrder | None, requested: FeedOrder | None, cursor: Cursor | None
    ) -> FeedOrder:
        """`chosen`: the account's own setting (cached with the reader's relations)."""
        return order_of_cursor(requested, cursor) or chosen or self._default

    async def preferences(self, user_id: int) -> tuple[FeedOrder | None, FeedOrder]:
        """The account's own choice (None: none made) and the order it gets by default."""
        chosen = await self._preferences.feed_order(user_id)
        return chosen, chosen or self._default

    async def change(self, user_id: int, order: FeedOrder | None) -> None:
        """None clears the account's choice, so `feed.default_order` applies again."""
        await self._preferences.set_feed_order(user_id, order)
        await self._states.changed([user_id])
