"""`feedloom import-graph EDGES.csv`: parse options, run `import_graph`, show progress.

A malformed CSV is refused with its line number before anything is written (exit 2, no
traceback).
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feedloom.capacity.graph import Edge, GraphFormatError, read_graph_csv

# The store's stack (SQLAlchemy...) is imported by the command itself, not at CLI start.
if TYPE_CHECKING:
    from feedloom.settings import Settings
    from feedloom.write.import_graph import ImportResult


def import_graph_command(
    edges_csv: Annotated[
        Path, typer.Argument(help="Edge CSV with the header 'follower,followee'.", dir_okay=False)
    ],
    password: Annotated[
        str | None,
        typer.Option(help="Password of every imported user (default: a random one, printed)."),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Where the SQLite file lives (embedded store).")
    ] = None,
) -> None:
    """Bulk-load users and follows into the configured store (idempotent)."""
    if password is not None and not 8 <= len(password) <= 256:
        raise typer.BadParameter("must be 8-256 characters", param_hint="--password")
    from feedloom.cli.config import command_settings

    edges = read_edges(edges_csv)
    chosen = password or secrets.token_urlsafe(12)
    settings = command_settings(data_dir)
    result = asyncio.run(_run(settings, edges, chosen))
    timelines = (
        "built on each user's first read (in-process store)"
        if settings.is_embedded
        else f"{result.timelines_built:,} (re)built, the others current"
    )
    typer.echo(
        f"imported {result.users:,} users ({result.new_users:,} new) and {result.edges:,} "
        f"follows\ntimelines: {timelines}\nusernames are u_<csv id>",
        err=True,
    )
    typer.echo(password_line(result, chosen if password is None else None), err=True)


def password_line(result: ImportResult, generated: str | None) -> str:
    """Only what works: accounts that existed before this run keep their password (the
    import skips them), so a password is printed for the new ones alone."""
    kept = result.users - result.new_users
    which = "the one given" if generated is None else generated
    if result.new_users == 0:
        return f"no new users: all {kept:,} keep their passwords"
    if kept == 0:
        return f"every imported user's password is {which}"
    return (
        f"the {result.new_users:,} new users' password is {which} "
        f"(the {kept:,} imported before keep theirs)"
    )


def read_edges(path: Path) -> list[Edge]:
    try:
        return read_graph_csv(path)
    except OSError as exc:
        raise typer.BadParameter(
            f"cannot read {path}: {exc.strerror}", param_hint="EDGES"
        ) from None
    except GraphFormatError as exc:
        # Nothing was written: the whole file is parsed before the first insert.
        raise typer.BadParameter(f"{path}: {exc}", param_hint="EDGES") from None


async def _run(settings: Settings, edges: list[Edge], password: str) -> ImportResult:
    from feedloom.bootstrap import open_feedloom
    from feedloom.cli.progress import ProgressBars

    async with open_feedloom(settings) as feedloom:
        # One hash for everyone: argon2 is deliberately slow, a hash per user would
        # take minutes on a large graph. Users should change it after logging in.
        password_hash = await asyncio.to_thread(feedloom.password_hasher.hash, password)
        with ProgressBars() as progress:
            return await feedloom.services.graph_import.run(
                edges,
                password_hash,
                build_timelines=not settings.is_embedded,
                progress=progress,
            )
