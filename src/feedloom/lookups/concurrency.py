"""Independent lookups, awaited one after another or together.

In process, awaiting in turn is cheapest (no tasks to schedule). Against Redis,
awaiting together lets the client send what they ask in one round trip
(adapters/redis/autopipeline.py). The composition root picks one; the read path just
says which lookups do not depend on each other.
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

from feedloom.lookups.eager import Done, Started, start

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")


class Concurrency(Protocol):
    async def two(self, a: Awaitable[A], b: Awaitable[B]) -> tuple[A, B]: ...

    async def three(self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C]) -> tuple[A, B, C]: ...
    async def four(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D]
    ) -> tuple[A, B, C, D]: ...
    async def five(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D], e: Awaitable[E]
    ) -> tuple[A, B, C, D, E]: ...


class InTurn:
    async def two(self, a: Awaitable[A], b: Awaitable[B]) -> tuple[A, B]:
        return await a, await b

    async def three(self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C]) -> tuple[A, B, C]:
        return await a, await b, await c

    async def four(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D]
    ) -> tuple[A, B, C, D]:
        return await a, await b, await c, await d

    async def five(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D], e: Awaitable[E]
    ) -> tuple[A, B, C, D, E]:
        return await a, await b, await c, await d, await e


class Together:
    """The first lookup runs in the caller's task; the others are started at once and
    get a task of their own only if they wait (eager.py): a warm page's lookups mostly
    end without waiting, served from what the process keeps. None of
    `asyncio.gather`'s bookkeeping (a warm read awaits five groups). If one fails, the
    others are cancelled."""

    async def two(self, a: Awaitable[A], b: Awaitable[B]) -> tuple[A, B]:
        first, second = await _together(a, b)
        return first, second

    async def three(self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C]) -> tuple[A, B, C]:
        first, second, third = await _together(a, b, c)
        return first, second, third

    async def four(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D]
    ) -> tuple[A, B, C, D]:
        first, second, third, fourth = await _together(a, b, c, d)
        return first, second, third, fourth

    async def five(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D], e: Awaitable[E]
    ) -> tuple[A, B, C, D, E]:
        first, second, third, fourth, fifth = await _together(a, b, c, d, e)
        return first, second, third, fourth, fifth


async def _together(first: Awaitable[Any], *rest: Awaitable[Any]) -> list[Any]:
    started: list[Started] = []
    try:
        for lookup in rest:
            started.append(start(lookup))
        results = [await first]
        for one in started:
            results.append(one.value if isinstance(one, Done) else await one)
    except BaseException:
        tasks = [one for one in started if not isinstance(one, Done)]
        for task in tasks:
            task.cancel()
        if tasks:  # let them end, so none is left pending or with an unread error
            await asyncio.wait(tasks)
        for lookup in [first, *rest[len(started) + 1 :]]:  # never started: closed
            if isinstance(lookup, types.CoroutineType):
                lookup.close()
        raise
    return results
