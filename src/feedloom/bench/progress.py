"""What a benchmark reports its progress to (the CLI draws it: cli/progress.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Count = Callable[[int], None]
Clock = Callable[[float, str], None]


class RunProgress(Protocol):
    def counter(self, name: str, total: int) -> Count:
        """A bar over `total` items; call the result with how many more are done."""
        ...

    def clock(self, name: str, seconds: float) -> Clock:
        """A bar over a time span; call the result with seconds elapsed and a note."""
        ...
