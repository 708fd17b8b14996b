"""Feed cursors: what is issued comes back, and any string the documented pattern
admits is a cursor (so the OpenAPI document's pattern is the whole truth)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.cursors import (
    FEED_CURSOR_PATTERN,
    KEYSET_PATTERN,
    KeysetCursor,
    SessionCursor,
    decode_cursor,
    encode_cursor,
    keyset_before,
)
from feedloom.domain.errors import BadCursor
from feedloom.domain.reposts import CARRIED


@given(st.integers(1, 2**63 - 1))
def test_a_keyset_cursor_round_trips_and_matches_its_pattern(before: int) -> None:
    text = encode_cursor(KeysetCursor(before))
    assert decode_cursor(text) == KeysetCursor(before)
    assert re.fullmatch(KEYSET_PATTERN, text)


@given(st.lists(st.integers(1, 2**63 - 1), min_size=1, max_size=CARRIED))
def test_a_keyset_cursor_carries_the_originals_shown(shown: list[int]) -> None:
    cursor = KeysetCursor(5, tuple(shown))
    assert decode_cursor(encode_cursor(cursor)) == cursor


@pytest.mark.parametrize(
    "cursor",
    [SessionCursor(session="f9a2-x_1", offset=40), SessionCursor("abc", 0, 2**63 - 1, 7)],
)
def test_a_session_cursor_round_trips(cursor: SessionCursor) -> None:
    assert decode_cursor(encode_cursor(cursor)) == cursor
    assert re.fullmatch(FEED_CURSOR_PATTERN, encode_cursor(cursor))


@given(st.from_regex(FEED_CURSOR_PATTERN, fullmatch=True))
def test_every_string_the_pattern_admits_is_a_cursor(text: str) -> None:
    decode_cursor(text)


@pytest.mark.parametrize(
    "text",
    [
        *("", "!!!", "k", "k0", "k01", "k9223372036854775808", "k1.", "k1.0", "k1\n"),
        *("s.1", "sab.100001", "sa b.1", "sab.1.2", "sab.1.2.3.4"),
        "k1" + ".2" * (CARRIED + 1),
    ],
)
def test_anything_we_did_not_issue_is_a_bad_cursor(text: str) -> None:
    with pytest.raises(BadCursor):
        decode_cursor(text)


def test_a_session_cursor_is_refused_where_only_a_keyset_one_makes_sense() -> None:
    assert keyset_before("k5") == 5
    with pytest.raises(BadCursor):
        keyset_before(encode_cursor(SessionCursor("abc", 1)))
