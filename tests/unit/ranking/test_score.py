"""The version-2 score, checked against hand-computed values."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from feedloom.ranking import Candidate, ScoreBreakdown, Weights, explain_score, score

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def candidate(
    *,
    age: timedelta = timedelta(0),
    affinity: float = 0.0,
    likes: int = 0,
    comments: int = 0,
) -> Candidate:
    return Candidate(
        post_id="1",
        author_id="a",
        created_at=NOW - age,
        affinity=affinity,
        likes=likes,
        comments=comments,
    )


def test_a_fresh_post_scores_its_affinity_and_engagement_terms_undecayed() -> None:
    # 2 * 0.5 + log10(1 + 9) = 1 + 1
    assert score(candidate(affinity=0.5, likes=9), Weights(), NOW) == pytest.approx(2.0)


def test_a_post_one_half_life_old_scores_half() -> None:
    post = candidate(age=timedelta(hours=6), affinity=0.5, likes=9)
    assert score(post, Weights(), NOW) == pytest.approx(1.0)


def test_the_half_life_is_taken_from_the_weights() -> None:
    post = candidate(age=timedelta(hours=3), affinity=0.5, likes=9)
    assert score(post, Weights(half_life_hours=3.0), NOW) == pytest.approx(1.0)


def test_a_comment_weighs_as_much_as_three_likes() -> None:
    with_comments = score(candidate(comments=3), Weights(), NOW)
    with_likes = score(candidate(likes=9), Weights(), NOW)
    assert with_comments == pytest.approx(with_likes)
    assert with_comments == pytest.approx(1.0)


def test_the_default_weights_are_the_design_values() -> None:
    assert Weights() == Weights(affinity=2.0, engagement=1.0, half_life_hours=6.0)


def test_the_weights_scale_each_term() -> None:
    post = candidate(affinity=1.0, likes=99)
    # 3 * 1 + 0.5 * log10(100)
    assert score(post, Weights(affinity=3.0, engagement=0.5), NOW) == pytest.approx(4.0)


def test_a_post_from_the_future_counts_as_brand_new() -> None:
    future = candidate(age=-timedelta(hours=6), affinity=0.5, likes=9)
    assert score(future, Weights(), NOW) == pytest.approx(2.0)


def test_affinity_is_clamped_to_the_unit_interval() -> None:
    assert score(candidate(affinity=7.0), Weights(), NOW) == pytest.approx(2.0)
    assert score(candidate(affinity=-1.0), Weights(), NOW) == 0.0
    assert score(candidate(affinity=math.nan), Weights(), NOW) == 0.0


def test_negative_counts_are_treated_as_zero() -> None:
    assert score(candidate(likes=-5, comments=-2), Weights(), NOW) == 0.0


def test_the_breakdown_shows_every_factor_of_the_score() -> None:
    post = candidate(age=timedelta(hours=12), affinity=0.5, likes=9)
    breakdown = explain_score(post, Weights(), NOW)
    assert isinstance(breakdown, ScoreBreakdown)
    assert breakdown.affinity_term == pytest.approx(1.0)
    assert breakdown.engagement_term == pytest.approx(1.0)
    assert breakdown.age_hours == pytest.approx(12.0)
    assert breakdown.decay == pytest.approx(0.25)
    assert breakdown.score == pytest.approx(0.5)


def test_the_breakdown_score_is_exactly_the_ranking_score() -> None:
    post = candidate(age=timedelta(minutes=97), affinity=0.3, likes=4, comments=1)
    assert explain_score(post, Weights(), NOW).score == score(post, Weights(), NOW)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("half_life_hours", 0.0),
        ("half_life_hours", -1.0),
        ("half_life_hours", math.inf),
        ("affinity", -0.1),
        ("engagement", math.nan),
        ("engagement", math.inf),
    ],
)
def test_weights_refuse_values_that_would_break_the_order(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        Weights(**{field: value})


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        Candidate("1", "a", datetime(2024, 5, 1), 0.0, 0, 0)
    with pytest.raises(ValueError, match="now"):
        score(candidate(), Weights(), datetime(2024, 5, 1))


def test_a_post_id_must_be_a_decimal_string() -> None:
    with pytest.raises(ValueError, match="post_id"):
        Candidate("abc", "a", NOW, 0.0, 0, 0)
