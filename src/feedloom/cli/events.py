"""`feedloom events list | show ID | replay ID...|--all`: the fan-out's dead letters.

An event that failed fan-out on every try (`fanout.dead_letter_after`) is set aside
with its error instead of retrying forever or blocking its lane (write/worker.py). It
is kept in the database, so these commands work beside a running service on either
backend; a replay puts it back in the outbox, and the running worker fans it out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.ports import DeadEvent

app = typer.Typer(
    no_args_is_help=True,
    help="List, inspect and replay events that failed fan-out (dead letters).",
    rich_markup_mode=None,
)
DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]
PAGE = 500


@app.command("list")
def list_command(
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="events to list")] = 50,
    data_dir: DataDir = None,
) -> None:
    """Dead letters, oldest first: id, when, lane, event, tries, error (first line)."""

    async def body(feedloom: Feedloom) -> tuple[list[DeadEvent], int]:
        dead = feedloom.stores.dead_letters
        return await dead.list(0, limit), await dead.count()

    shown, total = run_on_feedloom(command_settings(data_dir), body)
    for dead in shown:
        error = dead.error.splitlines()[0] if dead.error else ""
        when = dead.failed_at.isoformat(timespec="seconds")
        typer.echo(f"{dead.id}\t{when}\t{dead.lane}\t{describe(dead)}\t{dead.attempts}\t{error}")
    typer.echo(f"{total:,} dead letters", err=True)


@app.command("show")
def show(
    dead_id: Annotated[int, typer.Argument(help="the dead letter's id (from list)")],
    data_dir: DataDir = None,
) -> None:
    """One dead letter in full, with its whole error."""

    async def body(feedloom: Feedloom) -> DeadEvent | None:
        return await feedloom.stores.dead_letters.get(dead_id)

    dead = run_on_feedloom(command_settings(data_dir), body)
    if dead is None:
        fail(f"no dead letter {dead_id}", USAGE)
    typer.echo(f"id: {dead.id}\nevent: {describe(dead)}\nlane: {dead.lane}")
    typer.echo(f"tries: {dead.attempts}\nfailed at: {dead.failed_at.isoformat()}")
    typer.echo(f"error:\n{dead.error}")


@app.command("replay")
def replay(
    dead_ids: Annotated[list[int] | None, typer.Argument(help="dead letter ids")] = None,
    everyone: Annotated[bool, typer.Option("--all", help="every dead letter")] = False,
    data_dir: DataDir = None,
) -> None:
    """Put dead letters back in the outbox: the worker fans them out again."""
    if bool(dead_ids) == everyone:
        fail("name dead letter ids or --all (not both)", USAGE)

    async def body(feedloom: Feedloom) -> int:
        dead, now = feedloom.stores.dead_letters, feedloom.runtime.clock()
        if not everyone:
            return await dead.replay(dead_ids or [], now)
        replayed = 0
        while page := await dead.list(0, PAGE):
            replayed += await dead.replay([d.id for d in page], now)
        return replayed

    typer.echo(f"replayed {run_on_feedloom(command_settings(data_dir), body):,} events")


def describe(dead: DeadEvent) -> str:
    event = dead.event
    return f"{type(event).__name__}(post {event.post_id}, author {event.author_id})"
