"""Lookups awaited together: results in the order asked, and a failure cancels the
others instead of leaving them running with nobody to read their outcome."""

from __future__ import annotations

import asyncio

import pytest

from feedloom.lookups.concurrency import InTurn, Together


async def value(result: int, turns: int = 0) -> int:
    for _ in range(turns):
        await asyncio.sleep(0)
    return result


@pytest.mark.parametrize("concurrency", [Together(), InTurn()])
async def test_results_come_back_in_the_order_asked(concurrency: Together | InTurn) -> None:
    assert await concurrency.two(value(1, 3), value(2)) == (1, 2)
    assert await concurrency.five(value(1), value(2, 2), value(3), value(4, 1), value(5)) == (
        1,
        2,
        3,
        4,
        5,
    )


async def test_together_runs_the_lookups_at_the_same_time() -> None:
    started: list[str] = []

    async def lookup(name: str) -> str:
        started.append(name)
        await asyncio.sleep(0.01)
        assert set(started) == {"a", "b", "c"}  # every one began before any ended
        return name

    assert await Together().three(lookup("a"), lookup("b"), lookup("c")) == ("a", "b", "c")


async def test_a_failed_lookup_cancels_the_others() -> None:
    cancelled: list[bool] = []

    async def slow() -> int:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return 0

    async def fails() -> int:
        await asyncio.sleep(0.01)  # the others are running by now
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await Together().three(fails(), slow(), slow())
    assert cancelled == [True, True]
    assert len(asyncio.all_tasks()) == 1  # only this test's own task is left
