"""`feedloom webhooks list | show | replay`: webhook deliveries that gave up.

A delivery still failing a day (FEEDLOOM_WEBHOOKS__GIVE_UP_AFTER_S) after its event is
dead: `list` shows the latest (ID, type, tries, last error), `show ID` one with its body,
`replay ID` makes it pending again, its day of retries counted from now; a running
worker sends it with the same `webhook-id` (write/webhooks.py). The deliveries are rows
in the database, so these run here, with or without a server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.ports.webhooks import Delivery

app = typer.Typer(
    no_args_is_help=True, help="Webhook deliveries that gave up.", rich_markup_mode=None
)
DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]
DeliveryId = Annotated[str, typer.Argument(help="the delivery's ID (webhook-id without msg_)")]


@app.command("list")
def list_dead(
    limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50,
    state: Annotated[str, typer.Option(help="dead, pending or done")] = "dead",
    data_dir: DataDir = None,
) -> None:
    """The latest deliveries in a state (dead by default), newest first."""

    async def body(feedloom: Feedloom) -> list[Delivery]:
        return await feedloom.stores.webhooks.deliveries(state, limit)

    found = run_on_feedloom(command_settings(data_dir), body)
    for one in found:
        typer.echo(
            f"{one.delivery_id} {one.type} to {one.url}: {one.attempts} tries, {one.last_error}"
        )
    if not found:
        typer.echo(f"no {state} deliveries")


@app.command("show")
def show(delivery_id: DeliveryId, data_dir: DataDir = None) -> None:
    """One delivery: where, what, how it went, and the signed body."""
    number = _number(delivery_id)

    async def body(feedloom: Feedloom) -> Delivery | None:
        return await feedloom.stores.webhooks.delivery(number)

    one = run_on_feedloom(command_settings(data_dir), body)
    if one is None:
        fail(f"no delivery {number}", 1)
    fields: dict[str, Any] = {
        "id": str(one.delivery_id),
        "webhook_id": str(one.webhook_id),
        "url": one.url,
        "type": one.type,
        "state": one.state,
        "attempts": one.attempts,
        "last_error": one.last_error,
        "payload": json.loads(one.payload),
    }
    typer.echo(json.dumps(fields, indent=2))


@app.command("replay")
def replay(delivery_id: DeliveryId, data_dir: DataDir = None) -> None:
    """Send a dead delivery again (same webhook-id), with a new day of retries."""
    number = _number(delivery_id)

    async def body(feedloom: Feedloom) -> bool:
        return await feedloom.stores.webhooks.replay(number, feedloom.runtime.clock())

    if not run_on_feedloom(command_settings(data_dir), body):
        fail(f"no dead delivery {number}", 1)
    typer.echo(f"delivery {delivery_id} is pending again")


def _number(text: str) -> int:
    text = text.removeprefix("msg_")
    if not text.isdigit() or len(text) > 19:
        fail(f"{text!r} is not a delivery ID", 2)
    return int(text)
