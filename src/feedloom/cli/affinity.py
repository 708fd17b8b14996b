"""`feedloom affinity rebuild`: recompute every reader -> author affinity from the likes
and comments tables (the batch form of the ranking feature; see write/affinity.py).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    no_args_is_help=True, help="The ranked feed's affinity feature.", rich_markup_mode=None
)


@app.command("rebuild")
def rebuild(
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
) -> None:
    """Recompute every affinity from the likes and comments tables.

    Run it after changing feed.affinity_half_life_days, or to repair what online updates
    missed. It may run while serving; a like made during the run can be left out until
    the next run."""
    from feedloom.bootstrap import open_feedloom
    from feedloom.cli.config import command_settings

    settings = command_settings(data_dir)

    async def main() -> int:
        from feedloom.cli.progress import ProgressBars

        async with open_feedloom(settings) as feedloom:
            with ProgressBars() as bars:
                return await feedloom.services.affinity.rebuild(bars)

    started = time.perf_counter()
    pairs = asyncio.run(main())
    typer.echo(f"rebuilt {pairs} reader-author affinities in {time.perf_counter() - started:.2f}s")
