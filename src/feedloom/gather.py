"""Bounded concurrency: run many calls, at most `limit` at a time (a pool, not a herd).

Calls, not coroutines: a coroutine is only created when a slot is free, so a million
queued calls do not sit in memory as a million suspended coroutines. Top level, not in
bench/: the benchmarks and use cases (a bulk import's lookups) share it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


async def bounded(calls: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Results in call order."""
    gate = asyncio.Semaphore(limit)

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(call) for call in calls))
