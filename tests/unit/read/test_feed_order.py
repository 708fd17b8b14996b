"""Which order a feed request gets: its cursor's, else the request's, else the account's."""

from __future__ import annotations

import pytest

from feedloom.domain.cursors import KeysetCursor, SessionCursor
from feedloom.domain.model import FeedOrder
from feedloom.read.feed_order import order_of_cursor

CHRONOLOGICAL, RANKED = FeedOrder.CHRONOLOGICAL, FeedOrder.RANKED
KEYSET, SESSION = KeysetCursor(before=42), SessionCursor(session="abc", offset=20)


@pytest.mark.parametrize("requested", [None, CHRONOLOGICAL, RANKED])
def test_without_a_cursor_only_the_request_pins_the_order(requested: FeedOrder | None) -> None:
    assert order_of_cursor(requested, None) is requested


@pytest.mark.parametrize(("cursor", "order"), [(KEYSET, CHRONOLOGICAL), (SESSION, RANKED)])
def test_a_cursor_continues_the_feed_it_came_from(
    cursor: KeysetCursor | SessionCursor, order: FeedOrder
) -> None:
    assert order_of_cursor(None, cursor) is order
    assert order_of_cursor(order, cursor) is order


@pytest.mark.parametrize(
    ("cursor", "requested", "continued"),
    [(KEYSET, RANKED, CHRONOLOGICAL), (SESSION, CHRONOLOGICAL, RANKED)],
)
def test_a_cursor_continues_its_own_order_whatever_the_request_says(
    cursor: KeysetCursor | SessionCursor, requested: FeedOrder, continued: FeedOrder
) -> None:
    assert order_of_cursor(requested, cursor) is continued
