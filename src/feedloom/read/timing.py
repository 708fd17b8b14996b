"""Per-stage durations of one request, rendered as a Server-Timing header."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class StageTimer:
    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self._started = time.perf_counter()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - started

    def total(self) -> float:
        return time.perf_counter() - self._started

    def header(self) -> str:
        parts = [f"{name};dur={seconds * 1000:.2f}" for name, seconds in self.stages.items()]
        parts.append(f"total;dur={self.total() * 1000:.2f}")
        return ", ".join(parts)
