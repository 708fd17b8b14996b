"""Ranking step, score to order: sort candidates best first with a total, deterministic order.

A total order matters because pages are cut from the ranked list: if two equal-score
posts could swap between requests, a reader paging through would see one twice and
miss the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from feedloom.ranking._time import require_aware
from feedloom.ranking.score import Candidate, Weights, score

DEFAULT_WEIGHTS = Weights()


def rank(
    candidates: Iterable[Candidate],
    weights: Weights = DEFAULT_WEIGHTS,
    *,
    now: datetime,
) -> list[Candidate]:
    """Best first; equal scores go newer first, then by the larger post id.

    Post ids are Snowflake-style decimal strings, so they are compared as integers:
    as strings "10" would sort before "9".
    """
    require_aware(now, "now")
    # Score each candidate once; all three keys descend, so one reversed sort suffices.
    keyed = [
        ((score(candidate, weights, now), candidate.created_at, int(candidate.post_id)), candidate)
        for candidate in candidates
    ]
    keyed.sort(key=lambda pair: pair[0], reverse=True)
    return [candidate for _, candidate in keyed]
