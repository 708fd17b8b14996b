"""Ranking feature: reader -> author affinity in [0, 1] from the reader's interactions.

Each interaction with one of the author's posts weighs 1 (like) or 3 (comment) and
decays exponentially:

    raw      = sum(weight * 0.5 ** (age_days / half_life_days))
    affinity = 1 - exp(-raw / SATURATION)

so about five recent likes give ~0.63 and more interaction saturates toward 1.

Two equivalent forms. The batch form recomputes from the full interaction list. The
online form keeps only `(raw, updated_at)` per (reader, author) pair: because decay is
exponential, decaying the stored raw to a new instant and adding the new weight gives
exactly the batch sum, so a store can update a pair in O(1) per interaction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from feedloom.ranking._time import (
    SECONDS_PER_DAY,
    age_seconds,
    require_aware,
    require_positive_finite,
)

AFFINITY_HALF_LIFE_DAYS = 14.0
# Raw weight at which affinity reaches 1 - 1/e (~0.63): about five fresh likes.
SATURATION = 5.0

InteractionKind = Literal["like", "comment"]

# A comment costs the reader more effort than a like, so it is stronger evidence of interest.
INTERACTION_WEIGHTS: dict[InteractionKind, float] = {"like": 1.0, "comment": 3.0}


@dataclass(frozen=True, slots=True)
class Interaction:
    """One like or comment by the reader on one of the author's posts."""

    kind: InteractionKind
    at: datetime

    def __post_init__(self) -> None:
        _require_kind(self.kind)
        require_aware(self.at, "Interaction.at")


@dataclass(frozen=True, slots=True)
class AffinityState:
    """What a store keeps per (reader, author): the raw sum as of `updated_at`."""

    raw: float
    updated_at: datetime

    def __post_init__(self) -> None:
        if not math.isfinite(self.raw) or self.raw < 0:
            raise ValueError(f"AffinityState.raw must be a finite number >= 0, got {self.raw!r}")
        require_aware(self.updated_at, "AffinityState.updated_at")


def affinity_from_interactions(
    interactions: Iterable[Interaction],
    now: datetime,
    half_life_days: float = AFFINITY_HALF_LIFE_DAYS,
) -> float:
    """Batch form: affinity at `now` recomputed from every interaction."""
    require_aware(now, "now")
    require_positive_finite(half_life_days, "half_life_days")
    raw = math.fsum(
        INTERACTION_WEIGHTS[interaction.kind] * _decay(interaction.at, now, half_life_days)
        for interaction in interactions
    )
    return saturate(raw)


def decayed(
    state: AffinityState, now: datetime, half_life_days: float = AFFINITY_HALF_LIFE_DAYS
) -> float:
    """The stored raw sum decayed to `now`; a `now` before `updated_at` leaves it as is."""
    require_aware(now, "now")
    require_positive_finite(half_life_days, "half_life_days")
    return state.raw * _decay(state.updated_at, now, half_life_days)


def add_interaction(
    state: AffinityState | None,
    kind: InteractionKind,
    at: datetime,
    half_life_days: float = AFFINITY_HALF_LIFE_DAYS,
) -> AffinityState:
    """Online form: fold one interaction into the stored state.

    In-order interactions move `updated_at` forward. A late one (queues do reorder) is
    decayed back to the state's instant instead, so the result is the same whatever
    the arrival order, and `updated_at` never moves backward.
    """
    _require_kind(kind)
    require_aware(at, "at")
    require_positive_finite(half_life_days, "half_life_days")
    weight = INTERACTION_WEIGHTS[kind]
    if state is None:
        return AffinityState(raw=weight, updated_at=at)
    if at >= state.updated_at:
        return AffinityState(raw=decayed(state, at, half_life_days) + weight, updated_at=at)
    return replace(state, raw=state.raw + weight * _decay(at, state.updated_at, half_life_days))


def affinity_value(
    state: AffinityState | None,
    now: datetime,
    half_life_days: float = AFFINITY_HALF_LIFE_DAYS,
) -> float:
    """Affinity at `now` from the stored state; no state means no interactions, so 0."""
    require_aware(now, "now")
    if state is None:
        return 0.0
    return saturate(decayed(state, now, half_life_days))


def saturate(raw: float) -> float:
    # expm1 keeps full relative precision for small raw, where 1 - exp(-x) would cancel.
    return -math.expm1(-raw / SATURATION)


def _decay(then: datetime, now: datetime, half_life_days: float) -> float:
    return float(0.5 ** (age_seconds(then, now) / SECONDS_PER_DAY / half_life_days))


def _require_kind(kind: str) -> None:
    # Literal types are not checked at runtime; an unknown kind would otherwise be a KeyError.
    if kind not in INTERACTION_WEIGHTS:
        raise ValueError(f"interaction kind must be 'like' or 'comment', got {kind!r}")
