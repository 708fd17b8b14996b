"""`feedloom feeds show USER | build USER|--all | clear USER|--all`: home timelines.

Timelines are a cache, so these are safe while the service runs (write/feed_upkeep.py).
With Redis they act on the shared timelines directly. An embedded server (no
FEEDLOOM_REDIS_URL) keeps its timelines in its own memory: these commands then run
inside the server running on that data dir, through its control channel
(api/control.py); with no server running, no timeline exists to show, build or clear.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.cli.control import ControlClient
    from feedloom.settings import Settings
    from feedloom.write.feed_upkeep import FeedUpkeep, Progress, TimelineSnapshot

    Work = Callable[[FeedUpkeep, list[int], Progress], Awaitable[None]]

app = typer.Typer(
    no_args_is_help=True, help="Look at, rebuild and clear home timelines.", rich_markup_mode=None
)

Username = Annotated[str | None, typer.Argument(help="the reader's username")]
Everyone = Annotated[bool, typer.Option("--all", help="every account")]
DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]
ACTIONS = {"build": "rebuilding", "clear": "clearing"}


@app.command("show")
def show(
    username: Annotated[str, typer.Argument(help="the reader's username")],
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="entries to list")] = 20,
    data_dir: DataDir = None,
) -> None:
    """The cached timeline: its length, expiry and newest entries with their authors."""
    settings = command_settings(data_dir)

    async def body(feedloom: Feedloom) -> TimelineSnapshot | None:
        [user_id] = await feedloom.services.feed_upkeep.readers(username)
        return await feedloom.services.feed_upkeep.show(user_id, limit)

    if not settings.is_embedded:
        snapshot = run_on_feedloom(settings, body)
    else:
        snapshot = _snapshot_of(_embedded_server(settings).call("GET", _feed_path(username, limit)))
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

    async def work(upkeep: FeedUpkeep, user_ids: list[int], done: Progress) -> None:
        await upkeep.build(user_ids, concurrency, done)

    request = {"username": _target(username, everyone), "concurrency": concurrency}
    rebuilt = _upkeep(command_settings(data_dir), "build", request, work)
    typer.echo(f"rebuilt {rebuilt:,} timelines")


@app.command("clear")
def clear(username: Username = None, everyone: Everyone = False, data_dir: DataDir = None) -> None:
    """Drop timelines; each is rebuilt on its reader's next read."""

    async def work(upkeep: FeedUpkeep, user_ids: list[int], done: Progress) -> None:
        await upkeep.clear(user_ids, done)

    request = {"username": _target(username, everyone)}
    cleared = _upkeep(command_settings(data_dir), "clear", request, work)
    typer.echo(f"cleared {cleared:,} timelines")


def _upkeep(settings: Settings, action: str, request: dict[str, Any], work: Work) -> int:
    """Run `work` on the readers `request` names, with a progress bar: inside the
    embedded server running on this data dir, or here on the shared timelines; the
    number of timelines done."""
    label = f"{ACTIONS[action]} timelines"
    if settings.is_embedded:
        return _with_progress(
            label, _embedded_server(settings).stream(f"/control/feeds/{action}", request)
        )

    async def here(feedloom: Feedloom) -> int:
        from feedloom.cli.progress import ProgressBars

        upkeep = feedloom.services.feed_upkeep
        user_ids = await upkeep.readers(request["username"])
        with ProgressBars() as bars:
            await work(upkeep, user_ids, bars.counter(label, len(user_ids)))
        return len(user_ids)

    return run_on_feedloom(settings, here)


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


def _target(username: str | None, everyone: bool) -> str | None:
    """The one username, or None for --all."""
    if (username is None) == (not everyone):
        fail("give a USERNAME or --all, not both", USAGE)
    return username


def _embedded_server(settings: Settings) -> ControlClient:
    from feedloom.cli.control import running_server

    server = running_server(settings)
    if server is None:
        fail(
            f"no feedloom server is running on {settings.data_dir}: an embedded server keeps "
            "its timelines in its memory (start it with `feedloom serve`)"
        )
    return server


def _feed_path(username: str, limit: int) -> str:
    from urllib.parse import quote

    return f"/control/feeds/{quote(username, safe='')}?limit={limit}"


def _snapshot_of(data: object) -> TimelineSnapshot | None:
    from pydantic import TypeAdapter

    from feedloom.write.feed_upkeep import TimelineSnapshot

    return TypeAdapter(TimelineSnapshot | None).validate_python(data)


def _with_progress(label: str, lines: Iterator[dict[str, Any]]) -> int:
    """Draw the server's progress lines (api/routes/control.py); the count done."""
    from feedloom.cli.progress import ProgressBars

    with ProgressBars() as bars:
        advance = None
        for line in lines:
            if "total" in line:
                advance = bars.counter(label, line["total"])
            elif "done" in line and advance is not None:
                advance(line["done"])
            elif "error" in line:
                fail(line["error"])
            elif "finished" in line:
                return int(line["finished"])
    fail("the server stopped answering before the work was done")
