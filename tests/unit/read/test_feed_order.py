"""Which order a feed request gets: the request's, else its cursor's, else the account's."""

from __future__ import annotations

import pytest

from feedloom.domain.cursors import KeysetCursor, SessionCursor
from feedloom.domain.errors import BadCursor
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


@pytest.mark.parametrize(("cursor", "requested"), [(KEYSET, RANKED), (SESSION, CHRONOLOGICAL)])
def test_a_cursor_of_the_other_order_is_refused_with_what_to_send_instead(
    cursor: KeysetCursor | SessionCursor, requested: FeedOrder
) -> None:
    with pytest.raises(BadCursor, match=f"not a {requested.value} one"):
        order_of_cursor(requested, cursor)
