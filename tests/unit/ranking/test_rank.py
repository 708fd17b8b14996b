"""Ordering: best first, and a total order so pages never shuffle between requests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from feedloom.ranking import Candidate, Weights, rank

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def candidate(
    post_id: str,
    *,
    age: timedelta = timedelta(hours=1),
    affinity: float = 0.0,
    likes: int = 0,
) -> Candidate:
    return Candidate(
        post_id=post_id,
        author_id="a",
        created_at=NOW - age,
        affinity=affinity,
        likes=likes,
        comments=0,
    )


def ids(candidates: list[Candidate]) -> list[str]:
    return [c.post_id for c in candidates]


def test_candidates_come_back_best_first() -> None:
    low = candidate("1", likes=1)
    high = candidate("2", likes=99)
    mid = candidate("3", affinity=0.5)
    assert ids(rank([low, high, mid], now=NOW)) == ["2", "3", "1"]


def test_a_fresh_weak_post_can_beat_an_old_strong_one() -> None:
    old = candidate("1", age=timedelta(hours=24), likes=999)  # 3 / 16
    fresh = candidate("2", age=timedelta(0), likes=1)  # log10(2) ~ 0.30
    assert ids(rank([old, fresh], now=NOW)) == ["2", "1"]


def test_equal_scores_go_newer_first() -> None:
    # Zero engagement and affinity score 0 whatever the age: a pure tie.
    older = candidate("9", age=timedelta(hours=2))
    newer = candidate("1", age=timedelta(hours=1))
    assert ids(rank([older, newer], now=NOW)) == ["1", "9"]


def test_equal_scores_and_times_go_by_post_id_as_an_integer() -> None:
    # As strings "10" < "9"; as Snowflake ids 10 is the later post.
    nine = candidate("9")
    ten = candidate("10")
    assert ids(rank([nine, ten], now=NOW)) == ["10", "9"]
    assert ids(rank([ten, nine], now=NOW)) == ["10", "9"]


def test_the_order_does_not_depend_on_the_input_order() -> None:
    posts = [candidate(str(i), age=timedelta(hours=i % 3), likes=i % 2) for i in range(12)]
    assert rank(posts, now=NOW) == rank(list(reversed(posts)), now=NOW)


def test_weights_change_the_order() -> None:
    liked = candidate("1", likes=99)
    close = candidate("2", affinity=0.9)
    assert ids(rank([liked, close], now=NOW)) == ["1", "2"]
    assert ids(rank([liked, close], Weights(affinity=5.0), now=NOW)) == ["2", "1"]


def test_no_candidates_rank_to_an_empty_list() -> None:
    assert rank([], now=NOW) == []


def test_a_naive_now_is_refused_even_with_no_candidates() -> None:
    with pytest.raises(ValueError, match="now"):
        rank([], now=datetime(2024, 5, 1))
