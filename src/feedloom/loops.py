"""The event loop a feedloom process serves on, chosen in one place.

Use cases await independent lookups with `asyncio.gather`. Where Python has eager
tasks (3.12+), every loop made here starts a task at once, in its creator's turn: a
lookup served from memory (the embedded default, Redis' near cache) ends there,
without waiting for a loop turn or being scheduled at all. On 3.11 a task waits for
the next turn, as asyncio always did.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def eager(factory: LoopFactory | None = None) -> LoopFactory:
    """`factory`'s loops (asyncio's default without one), with eager tasks where
    Python has them."""

    def made() -> asyncio.AbstractEventLoop:
        loop = factory() if factory is not None else asyncio.new_event_loop()
        if sys.version_info >= (3, 12):
            loop.set_task_factory(asyncio.eager_task_factory)
        return loop

    return made
