"""Lookups awaited together: results in the order asked, and a failure cancels the
others instead of leaving them running with nobody to read their outcome."""

from __future__ import annotations

import asyncio
import contextvars
import inspect

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


async def test_lookups_that_need_not_wait_end_without_a_loop_turn() -> None:
    """A warm page's lookups are served in process: each runs at once, none waits a
    turn of the loop for a task of its own to be stepped."""
    turned: list[bool] = []
    asyncio.get_running_loop().call_soon(turned.append, True)
    five = await Together().five(value(1), value(2), value(3), value(4), value(5))
    assert five == (1, 2, 3, 4, 5)
    assert turned == []
    assert await Together().three(value(1), value(2, 1), value(3)) == (1, 2, 3)
    assert turned == [True]  # one waited


async def test_a_timeout_a_lookup_starts_before_it_waits_is_its_own() -> None:
    """Begun in the caller's turn, it still times out the lookup, not the caller."""

    async def falls_back() -> str:
        try:
            async with asyncio.timeout(0.01):
                await asyncio.sleep(10)
        except TimeoutError:
            return "fallback"
        return "slept"

    async def times_out() -> str:
        async with asyncio.timeout(0.01):
            await asyncio.sleep(10)
        return "slept"

    async def outlasts_them() -> int:  # the caller is busy with it when they time out
        await asyncio.sleep(0.05)
        return 1

    assert await Together().two(outlasts_them(), falls_back()) == (1, "fallback")
    with pytest.raises(TimeoutError):
        await Together().two(outlasts_them(), times_out())
    current = asyncio.current_task()
    assert current is not None and current.cancelling() == 0


LOOKUP_VAR: contextvars.ContextVar[str] = contextvars.ContextVar("lookup_var", default="caller")


async def test_a_lookup_runs_in_a_context_of_its_own() -> None:
    async def sets(turns: int) -> str:
        LOOKUP_VAR.set("lookup")
        for _ in range(turns):
            await asyncio.sleep(0)
        return LOOKUP_VAR.get()

    assert await Together().three(value(0), sets(0), sets(2)) == (0, "lookup", "lookup")
    assert LOOKUP_VAR.get() == "caller"


async def test_a_lookup_that_fails_at_once_closes_the_ones_not_started() -> None:
    async def fails_at_once() -> int:
        raise ValueError("at once")

    never = value(3)
    with pytest.raises(ValueError, match="at once"):
        await Together().three(value(1), fails_at_once(), never)
    assert inspect.getcoroutinestate(never) == "CORO_CLOSED"  # not left to warn "never awaited"
