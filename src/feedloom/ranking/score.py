"""Ranking step, features to score: the "version 2" heuristic of DESIGN section 8.

    score = (w_a * affinity + w_e * log10(1 + likes + 3 * comments))
            * 0.5 ** (age_hours / half_life_hours)

Pure: candidates carry plain feature values and the caller passes `now`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from feedloom.ranking._time import (
    SECONDS_PER_HOUR,
    age_seconds,
    require_aware,
    require_positive_finite,
)

# A comment costs the reader more effort than a like, so it is stronger evidence of interest.
COMMENT_WEIGHT = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """A post on its way to the ranker, with the features the score needs."""

    post_id: str
    author_id: str
    created_at: datetime
    affinity: float
    likes: int
    comments: int

    def __post_init__(self) -> None:
        require_aware(self.created_at, "Candidate.created_at")
        # Ties are broken by post id as an integer; check the Snowflake shape up front so a
        # malformed id fails here, with its name, rather than deep inside a sort.
        if not (self.post_id.isascii() and self.post_id.isdigit()):
            raise ValueError(f"Candidate.post_id must be a decimal string, got {self.post_id!r}")


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable knobs of the score; the defaults are the DESIGN section 8 values."""

    affinity: float = 2.0
    engagement: float = 1.0
    half_life_hours: float = 6.0

    def __post_init__(self) -> None:
        for name in ("affinity", "engagement"):
            value = getattr(self, name)
            # A negative weight would rank *against* a feature, and NaN would make the
            # ordering partial; neither is a tuning choice we want to allow by accident.
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"Weights.{name} must be a finite number >= 0, got {value!r}")
        require_positive_finite(self.half_life_hours, "Weights.half_life_hours")


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Every factor of one score, for the explain API; `score` is exactly what `rank` uses."""

    affinity_term: float
    engagement_term: float
    decay: float
    score: float
    age_hours: float


def clamp_affinity(affinity: float) -> float:
    # NaN means a broken feature, not a strong one: treat it as "no known affinity".
    if math.isnan(affinity):
        return 0.0
    return min(1.0, max(0.0, affinity))


def explain_score(candidate: Candidate, weights: Weights, now: datetime) -> ScoreBreakdown:
    require_aware(now, "now")
    # Counters are eventually consistent and may briefly dip below zero after an unlike.
    likes = max(0, candidate.likes)
    comments = max(0, candidate.comments)
    affinity_term = weights.affinity * clamp_affinity(candidate.affinity)
    engagement_term = weights.engagement * math.log10(1 + likes + COMMENT_WEIGHT * comments)
    age_hours = age_seconds(candidate.created_at, now) / SECONDS_PER_HOUR
    decay = float(0.5 ** (age_hours / weights.half_life_hours))
    return ScoreBreakdown(
        affinity_term=affinity_term,
        engagement_term=engagement_term,
        decay=decay,
        score=(affinity_term + engagement_term) * decay,
        age_hours=age_hours,
    )


def score(candidate: Candidate, weights: Weights, now: datetime) -> float:
    return explain_score(candidate, weights, now).score
