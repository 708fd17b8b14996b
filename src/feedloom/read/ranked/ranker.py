"""Ranked feed, scoring and re-ranking: run the ranker under a time budget, then reshape.

The ranker (`feedloom.ranking.rank` unless the composition root injects another) runs on a worker
thread under `asyncio.wait_for`: a slow one is abandoned at `feed.ranker_budget_ms` (the
thread finishes in the background, its result unused) and a failing one is caught. Both
raise `RankerFallback`, and the caller serves the chronological feed instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence, Set
from datetime import datetime, timedelta
from typing import Protocol

from feedloom.metrics import Metrics
from feedloom.ranking import Candidate, Weights
from feedloom.ranking.rerank import diversify, interleave, pin_own_recent

log = logging.getLogger(__name__)


class SessionLost(Exception):
    """A ranked session's list is gone (its store down or emptied): the feed goes on in
    time order below `before`, the oldest post the session served."""

    def __init__(self, before: int) -> None:
        super().__init__(before)
        self.before = before


class RankerFallback(Exception):
    """The ranker failed ("error") or ran past its budget ("timeout")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Ranker(Protocol):
    """Orders ranking candidates best first (`feedloom.ranking.rank` by default); runs on
    a worker thread under a time budget, so it may be slow or fail without harm."""

    def __call__(
        self, candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]: ...


class BudgetedRanker:
    """`ranker` and `budget_s` are public so experiments (and tests) can swap them."""

    def __init__(self, ranker: Ranker, weights: Weights, budget_s: float, metrics: Metrics) -> None:
        self.ranker, self.weights, self.budget_s = ranker, weights, budget_s
        self._fallbacks = metrics.ranker_fallbacks

    async def rank(self, candidates: Sequence[Candidate], now: datetime) -> list[Candidate]:
        ranker, weights = self.ranker, self.weights

        def run() -> list[Candidate]:
            ranked = ranker(candidates, weights, now=now)
            if sorted(c.post_id for c in ranked) != sorted(c.post_id for c in candidates):
                # Dropping or inventing posts is the filters' job, never the ranker's.
                raise ValueError("the ranker returned a different set of posts than it was given")
            return ranked

        try:
            return await asyncio.wait_for(asyncio.to_thread(run), self.budget_s)
        except TimeoutError:
            raise self._fallback("timeout") from None
        except Exception as error:
            log.warning("ranker failed; serving chronologically", exc_info=error)
            raise self._fallback("error") from error

    def _fallback(self, reason: str) -> RankerFallback:
        self._fallbacks.labels(reason).inc()
        return RankerFallback(reason)


def rerank(
    ranked: Sequence[Candidate],
    reader_id: int,
    now: datetime,
    pin_window: timedelta,
    outside: Set[str] = frozenset(),
    outside_share: float = 0.0,
) -> list[Candidate]:
    """No same author twice in a row where avoidable, then the reader's own posts of the
    last few minutes on top (after diversifying, so nothing can push them down), then the
    posts from `outside` the people the reader follows (in their ranked order) in a
    bounded share of the slots (after pinning, so pins cannot shift them)."""
    own, since = str(reader_id), now - pin_window
    inside = [candidate for candidate in ranked if candidate.post_id not in outside]
    diversified = diversify(inside, lambda candidate: candidate.author_id)
    pinned = pin_own_recent(
        diversified, lambda candidate: candidate.author_id == own and candidate.created_at >= since
    )
    recommended = [candidate for candidate in ranked if candidate.post_id in outside]
    return interleave(pinned, recommended, outside_share)
