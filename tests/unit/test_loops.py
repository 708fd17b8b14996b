"""The event loop every entry point serves on: eager tasks where Python has them."""

from __future__ import annotations

import asyncio
import sys

import pytest

from feedloom.loops import eager


async def served_from_memory() -> int:
    return 7


async def started_then_done() -> bool:
    task = asyncio.get_running_loop().create_task(served_from_memory())
    return task.done()


@pytest.mark.skipif(sys.version_info < (3, 12), reason="eager tasks came with Python 3.12")
def test_a_lookup_that_needs_no_wait_ends_as_its_task_is_made() -> None:
    with asyncio.Runner(loop_factory=eager()) as runner:
        assert runner.run(started_then_done()) is True


def test_without_eager_tasks_a_task_waits_for_a_loop_turn() -> None:
    with asyncio.Runner(loop_factory=asyncio.new_event_loop) as runner:
        assert runner.run(started_then_done()) is False


def test_the_factory_it_is_given_makes_the_loop() -> None:
    made: list[asyncio.AbstractEventLoop] = []

    def factory() -> asyncio.AbstractEventLoop:
        made.append(asyncio.new_event_loop())
        return made[-1]

    loop = eager(factory)()
    try:
        assert made == [loop]
    finally:
        loop.close()
