"""The `feedloom` command, assembled once here from one module per command group.

    serve.py         serve, worker, migrate: the service's own processes
    capacity.py      estimate, simulate: capacity arithmetic (pure, no server)
    import_graph.py  import-graph: bulk-load users and follows
    bench.py         bench fanout | mixed | timelines: load benchmarks
    affinity.py      affinity rebuild: the ranked feed's batch feature
    accounts.py      accounts create | modify | role | suspend | reinstate | delete | show
    apps.py          apps create | list | rotate | revoke: API keys (docs/INTEGRATION.md)
    webhooks.py      webhooks list | show | replay: deliveries that gave up
    doctor.py        doctor: is this machine's configuration fit to run feedloom?
    feeds.py         feeds show | build | clear: home timelines (Redis)
    events.py        events list | show | replay: fan-out's dead letters
    media.py         media cleanup: uploads no post attached
    config.py        (shared) settings in one line, backends checked, the wiring opened

Each module imports only typer (and rich) at the top; a command imports what it runs,
so `feedloom --help` does not load the service's stack. Every error is one plain line
(cli/errors.py), and so is what a command reports on stderr: nothing here depends on
the terminal's width. Help is plain click help (`rich_markup_mode=None`) for the same
reason.
"""

from __future__ import annotations

from typing import Annotated

import typer

from feedloom.cli import (
    accounts,
    affinity,
    apps,
    bench,
    capacity,
    doctor,
    events,
    feeds,
    import_graph,
    media,
    serve,
    webhooks,
)
from feedloom.cli.errors import OneLineErrors

app = typer.Typer(
    cls=OneLineErrors,
    no_args_is_help=True,
    help="feedloom: a news-feed service.",
    rich_markup_mode=None,
    # A bug (not a refused input) shows Python's own traceback, not a Rich panel.
    pretty_exceptions_enable=False,
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        typer.echo(f"feedloom {version('feedloom')}")
        raise typer.Exit()


@app.callback()
def main(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """feedloom: a news-feed service."""


app.command()(serve.serve)
app.command()(serve.worker)
app.command()(serve.migrate)
app.command()(doctor.doctor)
app.command("estimate")(capacity.estimate_command)
app.command("simulate")(capacity.simulate_command)
app.command("import-graph")(import_graph.import_graph_command)
app.add_typer(bench.app, name="bench")
app.add_typer(affinity.app, name="affinity")
app.add_typer(accounts.app, name="accounts")
app.add_typer(apps.app, name="apps")
app.add_typer(webhooks.app, name="webhooks")
app.add_typer(feeds.app, name="feeds")
app.add_typer(events.app, name="events")
app.add_typer(media.app, name="media")
