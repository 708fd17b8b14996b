"""Running the ranker under its budget, falling back on failure, and re-ranking."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from feedloom.metrics import Metrics
from feedloom.ranking import Candidate, Weights, rank
from feedloom.read.ranked.ranker import BudgetedRanker, Ranker, RankerFallback, rerank

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Budgeted(BudgetedRanker):
    """The budgeted ranker with the metrics it counts fallbacks in at hand."""

    def __init__(self, ranker: Ranker) -> None:
        self.metrics = Metrics()
        super().__init__(ranker, Weights(), budget_s=0.05, metrics=self.metrics)


budgeted = Budgeted


def candidate(post_id: int, author: str, minutes_old: int, likes: int = 0) -> Candidate:
    created = NOW - timedelta(minutes=minutes_old)
    return Candidate(str(post_id), author, created, affinity=0.0, likes=likes, comments=0)


CANDIDATES = [candidate(1, "a", 30), candidate(2, "b", 20, likes=9), candidate(3, "a", 10)]


def fallbacks(ranker: Budgeted, reason: str) -> float | None:
    return ranker.metrics.registry.get_sample_value(
        "feedloom_ranker_fallbacks_total", {"reason": reason}
    )


async def run(ranker: BudgetedRanker) -> list[Candidate]:
    return await ranker.rank(CANDIDATES, NOW)


async def test_the_default_ranker_orders_by_the_scoring_formula() -> None:
    ranker = budgeted(rank)
    assert await run(ranker) == rank(CANDIDATES, Weights(), now=NOW)
    assert [c.post_id for c in await run(ranker)] == ["2", "3", "1"]


async def test_a_ranker_that_raises_is_a_counted_error_fallback() -> None:
    def broken(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        raise RuntimeError("model server down")

    ranker = budgeted(broken)
    with pytest.raises(RankerFallback) as raised:
        await run(ranker)
    assert raised.value.reason == "error"
    assert fallbacks(ranker, "error") == 1


async def test_a_ranker_past_its_budget_is_abandoned_not_awaited() -> None:
    def slow(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        time.sleep(0.4)
        return list(candidates)

    ranker = budgeted(slow)
    ranker.budget_s = 0.02
    started = time.perf_counter()
    with pytest.raises(RankerFallback) as raised:
        await run(ranker)
    assert time.perf_counter() - started < 0.3
    assert raised.value.reason == "timeout"
    assert fallbacks(ranker, "timeout") == 1
    assert not fallbacks(ranker, "error")


async def test_a_ranker_that_drops_or_repeats_posts_is_an_error_fallback() -> None:
    def lossy(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        return [candidates[0], candidates[0], candidates[1]]

    with pytest.raises(RankerFallback, match="error"):
        await run(budgeted(lossy))


def test_rerank_spreads_authors_then_pins_the_readers_fresh_posts_on_top() -> None:
    reader = 7
    ranked = [
        candidate(1, "a", 60),
        candidate(2, "a", 50),
        candidate(3, "b", 40),
        candidate(4, str(reader), 30),  # own, but older than the pin window
        candidate(5, str(reader), 2),  # own and fresh
    ]
    result = rerank(ranked, reader, NOW, pin_window=timedelta(minutes=5))
    assert [c.post_id for c in result] == ["5", "1", "3", "2", "4"]
