"""`feedloom affinity rebuild`: recompute every reader -> author affinity from the likes
and comments tables (the batch form of the ranking feature; see write/affinity.py).

`register(app)` adds the `affinity` command group to the main CLI.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Annotated

import typer

affinity_app = typer.Typer(no_args_is_help=True, help="The ranked feed's affinity feature.")


def register(app: typer.Typer) -> None:
    app.add_typer(affinity_app, name="affinity")


@affinity_app.command("rebuild")
def rebuild_command(
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
) -> None:
    """Recompute every affinity from the likes and comments tables.

    Run it after changing feed.affinity_half_life_days, or to repair what online updates
    missed. It may run while serving; a like made during the run can be left out until
    the next run."""
    # Imported here, so `feedloom --help` does not load the store's stack. Settings are
    # built here rather than by cli.load_settings: cli.py imports this module, and a
    # lazy import back would still be a cycle.
    from feedloom.bootstrap import open_feedloom
    from feedloom.settings import Settings

    settings = Settings(data_dir=data_dir) if data_dir is not None else Settings()

    async def main() -> int:
        async with open_feedloom(settings) as feedloom:
            return await feedloom.services.affinity.rebuild()

    started = time.perf_counter()
    pairs = asyncio.run(main())
    typer.echo(f"rebuilt {pairs} reader-author affinities in {time.perf_counter() - started:.2f}s")
