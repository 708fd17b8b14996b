"""Progress bars on stderr while a long command runs (its report goes to stdout).

One kind of bar for every command, drawn by rich.progress: the bench counts requests
and watches the clock (`counter`, `clock`: the bench's RunProgress), the graph import
goes stage by stage (`stage`, `advance`: write/import_graph.py's ImportProgress).
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from feedloom.bench.progress import Clock, Count


class ProgressBars:
    def __init__(self) -> None:
        self._progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            "{task.fields[note]}",
            TimeElapsedColumn(),
            console=Console(stderr=True),
        )
        self._stage: Count = lambda _done: None

    def __enter__(self) -> ProgressBars:
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

    def stage(self, name: str, total: int) -> None:
        """A new bar; `advance` moves it until the next stage starts."""
        self._stage = self.counter(name, total)

    def advance(self, done: int) -> None:
        self._stage(done)
