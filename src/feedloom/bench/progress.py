"""Progress bars on stderr while a benchmark runs (the report goes to stdout)."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

Count = Callable[[int], None]
Clock = Callable[[float, str], None]


class RunProgress(Protocol):
    def counter(self, name: str, total: int) -> Count:
        """A bar over `total` items; call the result with how many more are done."""
        ...

    def clock(self, name: str, seconds: float) -> Clock:
        """A bar over a time span; call the result with seconds elapsed and a note."""
        ...


class SilentProgress:
    def counter(self, name: str, total: int) -> Count:
        return lambda _done: None

    def clock(self, name: str, seconds: float) -> Clock:
        return lambda _elapsed, _note: None


class RichProgress:
    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            "{task.fields[note]}",
            TimeElapsedColumn(),
            console=console,
        )

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def counter(self, name: str, total: int) -> Count:
        task = self._progress.add_task(name, total=total, note="")
        return lambda done: self._progress.advance(task, done)

    def clock(self, name: str, seconds: float) -> Clock:
        task = self._progress.add_task(name, total=round(seconds), note="")

        def update(elapsed: float, note: str) -> None:
            self._progress.update(task, completed=min(round(elapsed), round(seconds)), note=note)

        return update
