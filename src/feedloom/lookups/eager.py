"""Start a lookup at once, in its caller's turn, and give it a task only if it waits.

A warm page's lookups mostly end without waiting for anything: what they need is kept
in process (adapters/redis/near_cache.py). A task each would cost them more than the
lookup itself: made, scheduled, stepped a loop turn later, then awaited. Python 3.12's
eager tasks do exactly this; on 3.11 `start` does it by hand:

- the lookup's first step runs at once, in a copy of the caller's context (a task's
  own context, as a task would get), while `asyncio.current_task()` is a stand-in for
  the task it may go on in (`_Starting`): what binds to the current task in that step
  (`asyncio.timeout`: it cancels, uncancels and counts cancellations) then acts on
  that task;
- a lookup that ends in that step is done: no task is made;
- one that waits goes on in a task, from where it stopped (`_Rest`).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import types
from asyncio.tasks import _enter_task, _leave_task
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any


class Done:
    """A lookup that ended in its first step, and what it returned."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


Started = Done | asyncio.Future[Any]
Lookup = Coroutine[Any, Any, Any]


def start(lookup: Awaitable[Any]) -> Started:
    """Run `lookup` up to its first wait: `Done` if it ended there, else its task."""
    if not isinstance(lookup, types.CoroutineType):  # a future already, or another kind
        return asyncio.ensure_future(lookup)
    if sys.version_info >= (3, 12):
        task = asyncio.Task(lookup, loop=asyncio.get_running_loop(), eager_start=True)
        return Done(task.result()) if task.done() and not task.cancelled() else task
    return _start_by_hand(lookup)


def _start_by_hand(lookup: Lookup) -> Started:
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    caller, starting = asyncio.current_task(loop), _Starting()
    if caller is not None:
        _leave_task(loop, caller)
    _enter_task(loop, starting)  # type: ignore[arg-type]  # a stand-in: _Starting
    try:
        waiting_on = context.run(lookup.send, None)
    except StopIteration as done:
        return Done(done.value)
    finally:
        _leave_task(loop, starting)  # type: ignore[arg-type]
        if caller is not None:
            _enter_task(loop, caller)
    # The future it waits on was marked "awaited" for a task that had it at once; the
    # task that will have it must see the mark, and nothing else awaiting that future
    # meanwhile may (asyncio raises "await wasn't used with future").
    blocking = getattr(waiting_on, "_asyncio_future_blocking", False)
    if blocking:
        waiting_on._asyncio_future_blocking = False
    task = loop.create_task(_go_on(lookup, waiting_on, blocking), context=context)
    starting.task = task
    return task


async def _go_on(lookup: Lookup, waiting_on: Any, blocking: bool) -> Any:
    return await _Rest(lookup, waiting_on, blocking)


class _Rest:
    """The rest of a lookup whose first step ran by hand, for its task to run: what
    the task sends or throws goes to the lookup, what the lookup waits on to the task."""

    __slots__ = ("_blocking", "_lookup", "_waiting_on")

    def __init__(self, lookup: Lookup, waiting_on: Any, blocking: bool) -> None:
        self._lookup, self._waiting_on, self._blocking = lookup, waiting_on, blocking

    def __await__(self) -> Generator[Any, Any, Any]:
        lookup, waiting_on = self._lookup, self._waiting_on
        if self._blocking:
            waiting_on._asyncio_future_blocking = True
        while True:
            try:
                sent = yield waiting_on
            except GeneratorExit:
                lookup.close()
                raise
            except BaseException as error:  # a cancellation, thrown into the task
                try:
                    waiting_on = lookup.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting_on = lookup.send(sent)
                except StopIteration as done:
                    return done.value


class _Starting:
    """`asyncio.current_task()` during a lookup's first step: the task it goes on in,
    once it has one. Before that, nothing can be cancelled (the step runs without
    yielding to the loop, so no timer fires during it)."""

    __slots__ = ("task",)

    def __init__(self) -> None:
        self.task: asyncio.Task[Any] | None = None

    def cancel(self, msg: Any = None) -> bool:
        return self.task is not None and self.task.cancel(msg)

    def uncancel(self) -> int:
        return 0 if self.task is None else self.task.uncancel()

    def cancelling(self) -> int:
        return 0 if self.task is None else self.task.cancelling()

    def __getattr__(self, name: str) -> Any:
        if self.task is None:
            raise AttributeError(f"a lookup's first step has no task yet: {name}")
        return getattr(self.task, name)
