"""`feedloom media cleanup`: delete media no post attached (write/media_cleanup.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feedloom.cli.config import command_settings, run_on_feedloom

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.write.media_cleanup import SweptMedia

app = typer.Typer(no_args_is_help=True, help="Uploaded media.", rich_markup_mode=None)


@app.command("cleanup")
def cleanup(
    older_than_hours: Annotated[
        float, typer.Option(min=1, help="only media uploaded at least this long ago")
    ] = 24,
    dry_run: Annotated[bool, typer.Option(help="count the orphans, delete nothing")] = False,
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
) -> None:
    """Delete media rows (and embedded files) that no post attaches. Safe while serving."""

    async def body(feedloom: Feedloom) -> SweptMedia:
        grace = timedelta(hours=older_than_hours)
        return await feedloom.services.media_cleanup(grace, dry_run)

    swept = run_on_feedloom(command_settings(data_dir), body)
    verb = "would delete" if dry_run else "deleted"
    typer.echo(f"{verb} {swept.rows:,} orphaned media ({swept.files:,} files)")
