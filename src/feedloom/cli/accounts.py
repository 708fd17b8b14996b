"""`feedloom accounts create | modify | role | suspend | reinstate | delete | show USER`.

What an operator (or the moderation tools) does to one account. Each command prints
the account after the change, in one line. Suspension and deletion sign the account
out at once and hide its posts from every feed on the next read
(write/account_lifecycle.py). On the embedded default a change runs inside the server
running on that data dir (api/control.py), since its sessions and views are cached in
that server's memory; with Redis, or with no server running, it runs here.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.ports import AccountRecord

app = typer.Typer(
    no_args_is_help=True, help="Create and administer accounts.", rich_markup_mode=None
)

User = Annotated[str, typer.Argument(help="the account's username")]
DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]


class RoleChoice(StrEnum):
    MODERATOR = "moderator"
    NONE = "none"


@app.command("create")
def create(
    username: User,
    password: Annotated[
        str | None, typer.Option(help="default: a random one, printed once")
    ] = None,
    display_name: Annotated[str, typer.Option(help="default: the username")] = "",
    data_dir: DataDir = None,
) -> None:
    """Create an account (as POST /v1/accounts does)."""
    chosen = password or secrets.token_urlsafe(12)

    async def body(feedloom: Feedloom) -> AccountRecord:
        await feedloom.services.accounts.register(username, chosen, display_name)
        return await feedloom.services.account_lifecycle.account(username)

    typer.echo(describe(run_on_feedloom(command_settings(data_dir), body)))
    if password is None:
        typer.echo(f"password: {chosen}")


@app.command("modify")
def modify(
    username: User,
    display_name: Annotated[str | None, typer.Option(help="a new display name")] = None,
    password: Annotated[
        str | None, typer.Option(help="a new password; signs the account out everywhere")
    ] = None,
    data_dir: DataDir = None,
) -> None:
    """Change an account's display name or password."""
    if display_name is None and password is None:
        raise typer.BadParameter("give --display-name or --password", param_hint="options")

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.modify(username, display_name, password)

    change = {"display_name": display_name, "password": password}
    _report(data_dir, body, Remote(username, "modify", change))


@app.command("role")
def role(
    username: User,
    new_role: Annotated[RoleChoice, typer.Argument(metavar="moderator|none")],
    data_dir: DataDir = None,
) -> None:
    """Give an account the moderator role, or take it away (none)."""
    from feedloom.domain.model import Role

    chosen = None if new_role is RoleChoice.NONE else Role(new_role.value)

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.set_role(username, chosen)

    _report(data_dir, body, Remote(username, "role", {"role": chosen}))


@app.command("suspend")
def suspend(username: User, data_dir: DataDir = None) -> None:
    """Sign the account out now and hide it and its posts from everyone (reversible)."""

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.suspend(username)

    _report(data_dir, body, Remote(username, "suspend"))


@app.command("reinstate")
def reinstate(username: User, data_dir: DataDir = None) -> None:
    """Undo a suspension: the account may sign in, its posts are shown again."""

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.reinstate(username)

    _report(data_dir, body, Remote(username, "reinstate"))


@app.command("delete")
def delete(
    username: User,
    yes: Annotated[bool, typer.Option("--yes", help="confirm: this cannot be undone")] = False,
    data_dir: DataDir = None,
) -> None:
    """Delete an account for good: hidden like a suspension, but never reinstated.

    Not yet: its posts, follows, likes and media rows are kept (hidden), not erased."""
    if not yes:
        fail("deleting an account cannot be undone: add --yes", 2)

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.delete(username)

    _report(data_dir, body, Remote(username, "delete"))


@app.command("show")
def show(username: User, data_dir: DataDir = None) -> None:
    """Print the account: ID, display name, role, suspension or deletion."""

    async def body(feedloom: Feedloom) -> AccountRecord:
        return await feedloom.services.account_lifecycle.account(username)

    _report(data_dir, body)


def describe(record: AccountRecord) -> str:
    """Three lines, each within 80 columns (a username is at most 32 characters, a
    display name 64)."""
    state = "active"
    if record.deleted_at is not None:
        state = f"deleted {record.deleted_at:%Y-%m-%d %H:%M}Z"
    elif record.suspended_at is not None:
        state = f"suspended {record.suspended_at:%Y-%m-%d %H:%M}Z"
    role = record.role.value if record.role else "none"
    return (
        f"{record.username} (id {record.user_id})\n"
        f"  {state}, role {role}\n"
        f"  display name {record.display_name!r}"
    )


@dataclass(frozen=True)
class Remote:
    """The same change as a control route of a running embedded server
    (api/routes/control.py)."""

    username: str
    action: str
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return f"/control/accounts/{quote(self.username, safe='')}/{self.action}"


def _report(
    data_dir: Path | None,
    body: Callable[[Feedloom], Awaitable[AccountRecord]],
    remote: Remote | None = None,
) -> None:
    from feedloom.cli.control import running_server

    settings = command_settings(data_dir)
    server = running_server(settings) if remote is not None else None
    if server is not None and remote is not None:
        record = _record_of(server.call("POST", remote.path, remote.body))
    else:
        record = run_on_feedloom(settings, body)
    typer.echo(describe(record))


def _record_of(data: object) -> AccountRecord:
    from pydantic import TypeAdapter

    from feedloom.ports import AccountRecord

    return TypeAdapter(AccountRecord).validate_python(data)
