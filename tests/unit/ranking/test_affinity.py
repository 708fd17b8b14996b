"""Affinity: decayed interaction weights saturating into [0, 1], batch and online alike."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedloom.ranking.affinity import (
    AFFINITY_HALF_LIFE_DAYS,
    SATURATION,
    AffinityState,
    Interaction,
    InteractionKind,
    add_interaction,
    affinity_from_interactions,
    affinity_value,
    decayed,
)

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def raw_of(affinity: float) -> float:
    """Invert the saturation, so tests can state expectations as raw weights."""
    return -SATURATION * math.log1p(-affinity)


def likes(count: int, *, age: timedelta = timedelta(0)) -> list[Interaction]:
    return [Interaction("like", NOW - age) for _ in range(count)]


def test_the_default_half_life_is_fourteen_days() -> None:
    assert AFFINITY_HALF_LIFE_DAYS == 14.0


def test_no_interactions_mean_no_affinity() -> None:
    assert affinity_from_interactions([], NOW) == 0.0
    assert affinity_value(None, NOW) == 0.0


def test_five_fresh_likes_give_one_minus_one_over_e() -> None:
    assert affinity_from_interactions(likes(5), NOW) == pytest.approx(1 - math.exp(-1))


def test_a_like_one_half_life_old_weighs_half() -> None:
    old = likes(1, age=timedelta(days=14))
    assert raw_of(affinity_from_interactions(old, NOW)) == pytest.approx(0.5)


def test_the_half_life_can_be_chosen() -> None:
    old = likes(1, age=timedelta(days=7))
    affinity = affinity_from_interactions(old, NOW, half_life_days=7.0)
    assert raw_of(affinity) == pytest.approx(0.5)


def test_a_comment_weighs_as_much_as_three_likes() -> None:
    comment = affinity_from_interactions([Interaction("comment", NOW)], NOW)
    assert comment == pytest.approx(affinity_from_interactions(likes(3), NOW))


def test_an_interaction_from_the_future_counts_as_fresh_not_stronger() -> None:
    future = likes(1, age=-timedelta(days=14))
    assert raw_of(affinity_from_interactions(future, NOW)) == pytest.approx(1.0)


def test_affinity_stays_in_the_unit_interval_and_saturates() -> None:
    many = affinity_from_interactions([Interaction("comment", NOW)] * 1000, NOW)
    assert 0.99 < many <= 1.0
    ancient = affinity_from_interactions(likes(1, age=timedelta(days=3650)), NOW)
    assert 0.0 <= ancient < 1e-9


def test_the_online_state_decays_with_the_half_life() -> None:
    state = add_interaction(None, "comment", NOW - timedelta(days=28))
    assert decayed(state, NOW) == pytest.approx(3 / 4)


def test_a_late_interaction_is_folded_in_without_moving_the_state_back() -> None:
    state = add_interaction(None, "like", NOW)
    late = add_interaction(state, "comment", NOW - timedelta(days=14))
    assert late.updated_at == NOW
    assert late.raw == pytest.approx(1 + 3 / 2)


def test_invalid_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="kind"):
        Interaction("share", NOW)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timezone-aware"):
        Interaction("like", datetime(2024, 5, 1))
    with pytest.raises(ValueError, match="half_life_days"):
        affinity_from_interactions([], NOW, half_life_days=0.0)
    with pytest.raises(ValueError, match="raw"):
        AffinityState(raw=-1.0, updated_at=NOW)


kinds: st.SearchStrategy[InteractionKind] = st.sampled_from(["like", "comment"])
# Two years keeps every decay factor far from float underflow, where "relative" loses meaning.
instants = st.datetimes(
    min_value=datetime(2022, 1, 1),
    max_value=datetime(2023, 12, 31),
    timezones=st.just(UTC),
)


@given(
    st.lists(st.tuples(kinds, instants), max_size=30),
    st.floats(min_value=0.1, max_value=60.0),
    st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=60)),
)
def test_online_updates_agree_with_the_batch_recompute(
    events: list[tuple[InteractionKind, datetime]],
    half_life_days: float,
    after_last: timedelta,
) -> None:
    interactions = sorted((Interaction(kind, at) for kind, at in events), key=lambda i: i.at)
    now = (interactions[-1].at if interactions else NOW) + after_last

    state: AffinityState | None = None
    for interaction in interactions:
        state = add_interaction(state, interaction.kind, interaction.at, half_life_days)

    batch = affinity_from_interactions(interactions, now, half_life_days)
    assert math.isclose(affinity_value(state, now, half_life_days), batch, rel_tol=1e-9)
