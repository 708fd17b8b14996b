"""Recommendations' reasons as a session keeps them, and the hourly sample of followees."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from feedloom.read.ranked.out_of_network import (
    LIKED_BY,
    TRENDING,
    Reason,
    decode_reasons,
    encode_reasons,
    hourly_sample,
)


def test_reasons_survive_the_session_store_as_flat_integers() -> None:
    reasons = {7: Reason(LIKED_BY, (1, 2, 3)), 9: Reason(TRENDING), 11: Reason(LIKED_BY, (4, 5))}
    assert decode_reasons(encode_reasons(reasons)) == reasons
    assert decode_reasons(None) == {}
    assert decode_reasons(encode_reasons(reasons)[:-1]) == {7: reasons[7], 9: reasons[9]}


def test_the_sample_of_followees_is_stable_within_an_hour_and_moves_between_hours() -> None:
    people = list(range(1_000))
    now = datetime(2026, 12, 7, 10, 5, tzinfo=UTC)
    first = hourly_sample(people, 50, 42, now)
    assert len(set(first)) == 50 and set(first) <= set(people)
    assert hourly_sample(people, 50, 42, now + timedelta(minutes=50)) == first
    assert hourly_sample(people, 50, 42, now + timedelta(hours=1)) != first
    assert hourly_sample(people[:10], 50, 42, now) == people[:10]
