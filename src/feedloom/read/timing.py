"""Per-stage durations of one request, rendered as a Server-Timing header."""

from __future__ import annotations

import time
from types import TracebackType


class StageTimer:
    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self._started = time.perf_counter()

    def stage(self, name: str) -> _Stage:
        """`with timer.stage("hydrate"): ...` adds the block's duration to the stage."""
        return _Stage(self.stages, name)

    def total(self) -> float:
        return time.perf_counter() - self._started

    def header(self) -> str:
        parts = [f"{name};dur={seconds * 1000:.2f}" for name, seconds in self.stages.items()]
        parts.append(f"total;dur={self.total() * 1000:.2f}")
        return ", ".join(parts)


class _Stage:
    """A plain context manager: a generator-based one costs a generator and its
    wrapper on every stage of every read."""

    __slots__ = ("_name", "_stages", "_started")

    def __init__(self, stages: dict[str, float], name: str) -> None:
        self._stages, self._name = stages, name
        self._started = 0.0

    def __enter__(self) -> None:
        self._started = time.perf_counter()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        stages, name = self._stages, self._name
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - self._started
