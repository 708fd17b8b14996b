"""Running the ranker under its budget, falling back on failure, and re-ranking."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import cast

import pytest

from feedloom.backend import Backend
from feedloom.metrics import Metrics
from feedloom.ports import Ranker
from feedloom.ranking import Candidate, Weights, rank
from feedloom.read.ranker import RankerFallback, rank_within_budget, rerank
from feedloom.settings import Settings

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@dataclass
class FakeBackend:
    ranker: Ranker
    settings: Settings = field(default_factory=lambda: Settings(environment="test"))
    metrics: Metrics = field(default_factory=Metrics)


def candidate(post_id: int, author: str, minutes_old: int, likes: int = 0) -> Candidate:
    created = NOW - timedelta(minutes=minutes_old)
    return Candidate(str(post_id), author, created, affinity=0.0, likes=likes, comments=0)


CANDIDATES = [candidate(1, "a", 30), candidate(2, "b", 20, likes=9), candidate(3, "a", 10)]


def fallbacks(backend: FakeBackend, reason: str) -> float | None:
    return backend.metrics.registry.get_sample_value(
        "feedloom_ranker_fallbacks_total", {"reason": reason}
    )


async def run(backend: FakeBackend) -> list[Candidate]:
    return await rank_within_budget(cast(Backend, backend), CANDIDATES, NOW)


async def test_the_default_ranker_orders_by_the_scoring_formula() -> None:
    backend = FakeBackend(ranker=rank)
    assert await run(backend) == rank(CANDIDATES, Weights(), now=NOW)
    assert [c.post_id for c in await run(backend)] == ["2", "3", "1"]


async def test_a_ranker_that_raises_is_a_counted_error_fallback() -> None:
    def broken(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        raise RuntimeError("model server down")

    backend = FakeBackend(ranker=broken)
    with pytest.raises(RankerFallback) as raised:
        await run(backend)
    assert raised.value.reason == "error"
    assert fallbacks(backend, "error") == 1


async def test_a_ranker_past_its_budget_is_abandoned_not_awaited() -> None:
    def slow(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        time.sleep(0.4)
        return list(candidates)

    backend = FakeBackend(ranker=slow)
    backend.settings.feed.ranker_budget_ms = 20
    started = time.perf_counter()
    with pytest.raises(RankerFallback) as raised:
        await run(backend)
    assert time.perf_counter() - started < 0.3
    assert raised.value.reason == "timeout"
    assert fallbacks(backend, "timeout") == 1
    assert not fallbacks(backend, "error")


async def test_a_ranker_that_drops_or_repeats_posts_is_an_error_fallback() -> None:
    def lossy(
        candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]:
        return [candidates[0], candidates[0], candidates[1]]

    with pytest.raises(RankerFallback, match="error"):
        await run(FakeBackend(ranker=lossy))


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
