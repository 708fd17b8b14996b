"""Independent lookups, awaited one after another or together.

In process, awaiting in turn is cheapest (no tasks to schedule). Against Redis,
awaiting together lets the client send what they ask in one round trip
(adapters/redis/autopipeline.py). The composition root picks one; the read path just
says which lookups do not depend on each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Protocol, TypeVar

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
    async def two(self, a: Awaitable[A], b: Awaitable[B]) -> tuple[A, B]:
        return await asyncio.gather(a, b)

    async def three(self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C]) -> tuple[A, B, C]:
        return await asyncio.gather(a, b, c)

    async def four(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D]
    ) -> tuple[A, B, C, D]:
        return await asyncio.gather(a, b, c, d)

    async def five(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D], e: Awaitable[E]
    ) -> tuple[A, B, C, D, E]:
        return await asyncio.gather(a, b, c, d, e)
