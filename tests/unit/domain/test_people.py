"""People-list cursors."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.errors import BadCursor
from feedloom.domain.people import (
    FOLLOW_CURSOR_PATTERN,
    SEARCH_CURSOR_PATTERN,
    FollowKey,
    RankKey,
    decode_follow,
    decode_rank,
    encode_follow,
    encode_rank,
)


def test_cursors_round_trip_and_refuse_each_other() -> None:
    rank = RankKey(12, 2**62)
    follow = FollowKey(datetime(2026, 12, 1, tzinfo=UTC), 5)
    assert decode_rank(encode_rank(rank)) == rank
    assert decode_follow(encode_follow(follow)) == follow
    assert decode_rank(None) is None and decode_follow(None) is None
    with pytest.raises(BadCursor):
        decode_rank(encode_follow(follow))
    with pytest.raises(BadCursor):
        decode_follow("zzz")


@given(st.from_regex(SEARCH_CURSOR_PATTERN, fullmatch=True))
def test_every_search_cursor_the_pattern_admits_is_one(text: str) -> None:
    assert decode_rank(text) is not None


@given(st.from_regex(FOLLOW_CURSOR_PATTERN, fullmatch=True))
def test_every_follow_cursor_the_pattern_admits_is_one(text: str) -> None:
    assert decode_follow(text) is not None


FOLLOWS = st.datetimes(datetime(1970, 1, 1), datetime(9999, 12, 30), timezones=st.just(UTC))


@given(FOLLOWS, st.integers(1, 2**63 - 1))
def test_a_follow_cursor_keeps_the_follow_time_to_the_microsecond(at: datetime, user: int) -> None:
    text = encode_follow(FollowKey(at, user))
    assert re.fullmatch(FOLLOW_CURSOR_PATTERN, text)
    assert decode_follow(text) == FollowKey(at, user)
