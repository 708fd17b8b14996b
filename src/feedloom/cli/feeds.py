"""`feedloom feeds show USER | build USER|--all | clear USER|--all`: home timelines.

Timelines are a cache, so these are safe while the service runs (write/feed_upkeep.py).
They act on the shared timelines in Redis: an embedded server (no FEEDLOOM_REDIS_URL)
keeps its timelines in its own memory, out of any other process's reach, and these
commands refuse to pretend otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.settings import Settings
    from feedloom.write.feed_upkeep import TimelineSnapshot

app = typer.Typer(
    no_args_is_help=True, help="Look at, rebuild and clear home timelines.", rich_markup_mode=None
)

Username = Annotated[str | None, typer.Argument(help="the reader's username")]
Everyone = Annotated[bool, typer.Option("--all", help="every account")]
DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]


@app.command("show")
def show(
    username: Annotated[str, typer.Argument(help="the reader's username")],
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="entries to list")] = 20,
    data_dir: DataDir = None,
) -> None:
    """The cached timeline: its length, expiry and newest entries with their authors."""
    settings = _shared_timelines(data_dir)

    async def body(feedloom: Feedloom) -> TimelineSnapshot | None:
        user_id = (await feedloom.services.account_lifecycle.account(username)).user_id
        return await feedloom.services.feed_upkeep.show(user_id, limit)

    snapshot = run_on_feedloom(settings, body)
    if snapshot is None:
        typer.echo(f"{username} has no cached timeline (it is rebuilt on the next read)")
        return
    for line in render_snapshot(username, snapshot):
        typer.echo(line)


@app.command("build")
def build(
    username: Username = None,
    everyone: Everyone = False,
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="rebuilds at a time")] = 8,
    data_dir: DataDir = None,
) -> None:
    """Rebuild timelines from the followees' posts, as a read miss would."""
    settings = _shared_timelines(data_dir)

    async def body(feedloom: Feedloom) -> int:
        from feedloom.cli.progress import ProgressBars

        user_ids = await _targets(feedloom, username, everyone)
        with ProgressBars() as bars:
            done = bars.counter("rebuilding timelines", len(user_ids))
            await feedloom.services.feed_upkeep.build(user_ids, concurrency, done)
        return len(user_ids)

    typer.echo(f"rebuilt {run_on_feedloom(settings, body):,} timelines")


@app.command("clear")
def clear(username: Username = None, everyone: Everyone = False, data_dir: DataDir = None) -> None:
    """Drop timelines; each is rebuilt on its reader's next read."""
    settings = _shared_timelines(data_dir)

    async def body(feedloom: Feedloom) -> int:
        from feedloom.cli.progress import ProgressBars

        user_ids = await _targets(feedloom, username, everyone)
        with ProgressBars() as bars:
            done = bars.counter("clearing timelines", len(user_ids))
            await feedloom.services.feed_upkeep.clear(user_ids, done)
        return len(user_ids)

    typer.echo(f"cleared {run_on_feedloom(settings, body):,} timelines")


def render_snapshot(username: str, snapshot: TimelineSnapshot) -> list[str]:
    """At most 80 columns: a summary line, then one row per entry."""
    from feedloom.domain.ids import created_at_of

    state = "complete" if snapshot.complete else "cut at the cap or by new follows"
    expiry = _duration(snapshot.expires_in_s)
    lines = [
        f"{username} (id {snapshot.user_id}): {snapshot.length:,} entries, {state}, "
        f"expires {expiry}",
        f"{'post id':<20}  {'posted (UTC)':<16}  {'author':<32}  mode",
    ]
    for entry in snapshot.entries:
        posted = f"{created_at_of(entry.post_id):%Y-%m-%d %H:%M}"
        mode = "pulled" if entry.pulled else "pushed"
        lines.append(f"{entry.post_id:<20}  {posted:<16}  {entry.author[:32]:<32}  {mode}")
    if len(snapshot.entries) < snapshot.length:
        lines.append(f"... {snapshot.length - len(snapshot.entries):,} older (--limit)")
    return lines


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "never"
    days, rest = divmod(int(seconds), 86_400)
    return f"in {days}d {rest // 3600}h" if days else f"in {rest // 3600}h {rest % 3600 // 60}m"


def _shared_timelines(data_dir: Path | None) -> Settings:
    settings = command_settings(data_dir)
    if settings.is_embedded:
        fail(
            "feeds commands need FEEDLOOM_REDIS_URL: an embedded server keeps its timelines "
            "in its own memory (restarting it rebuilds them all)"
        )
    return settings


async def _targets(feedloom: Feedloom, username: str | None, everyone: bool) -> list[int]:
    if (username is None) == (not everyone):
        fail("give a USERNAME or --all, not both", USAGE)
    if username is not None:
        return [(await feedloom.services.account_lifecycle.account(username)).user_id]
    return [
        user_id async for page in feedloom.services.feed_upkeep.every_user() for user_id in page
    ]
