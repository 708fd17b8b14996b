"""`feedloom apps create | list | rotate | revoke`: apps and their API keys
(docs/INTEGRATION.md).

`create` prints the API key and the token secret once (`--json`: one object
`{"app_id", "api_key", "token_secret"}`); `rotate` a new key (`--json`: `{"api_key"}`),
the old one refused from then on; `revoke` refuses the key and every user token the app
signed. As for `feedloom accounts`, on the embedded default a command runs inside the
server running on that data dir (its key cache is in that server's memory); with Redis,
or with no server running, it runs here.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from feedloom.cli.config import command_settings, run_on_feedloom
from feedloom.cli.errors import fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom

app = typer.Typer(
    no_args_is_help=True, help="Apps: server-side API keys and user tokens.", rich_markup_mode=None
)

DataDir = Annotated[Path | None, typer.Option(help="where the SQLite file lives")]
AsJson = Annotated[bool, typer.Option("--json", help="print one JSON object")]
AppId = Annotated[str, typer.Argument(help="the app's ID (from create or list)")]


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="a name for people (1-64 characters)")],
    scopes: Annotated[
        str,
        typer.Option(
            help="comma-separated: users:write, graph:write, posts:write, feeds:read, "
            "webhooks:manage, admin"
        ),
    ],
    algorithm: Annotated[
        str,
        typer.Option(help="how the app signs user tokens: HS256 (its token secret), EdDSA, RS256"),
    ] = "HS256",
    jwks_file: Annotated[
        Path | None,
        typer.Option(help="EdDSA/RS256: the app's public keys, a JSON Web Key Set file"),
    ] = None,
    jwks_url: Annotated[
        str | None,
        typer.Option(
            help="EdDSA/RS256: where the app serves its public keys (a JSON Web Key Set), "
            "fetched when needed, cached, fetched again for an unknown kid"
        ),
    ] = None,
    create_users: Annotated[
        bool, typer.Option(help="a valid user token for an unknown external ID creates the user")
    ] = False,
    as_json: AsJson = False,
    data_dir: DataDir = None,
) -> None:
    """Create an app and its API key (shown once)."""
    body: dict[str, Any] = {
        "name": name,
        "scopes": scopes,
        "algorithms": [algorithm],
        "jwks": _jwks(jwks_file, jwks_url, algorithm),
        "jwks_url": jwks_url,
        "create_users": create_users,
    }
    made = _call(data_dir, "POST", "/control/apps", body, _local_create(body))
    if as_json:
        keys = ("app_id", "api_key", "token_secret")
        typer.echo(json.dumps({key: made[key] for key in keys}))
        return
    typer.echo(_describe(made))
    typer.echo(f"  api key {made['api_key']} (shown once: keep it secret)")
    if algorithm == "HS256":
        typer.echo(f"  token secret {made['token_secret']} (signs user tokens, HS256)")


@app.command("list")
def list_apps(as_json: AsJson = False, data_dir: DataDir = None) -> None:
    """Every app: ID, name, scopes, revoked or not (never a key)."""

    async def body(feedloom: Feedloom) -> Any:
        from feedloom.api.routes.app_control import app_json

        return [app_json(one) for one in await feedloom.services.apps.admin.list()]

    apps = _call(data_dir, "GET", "/control/apps", None, body)
    if as_json:
        typer.echo(json.dumps(apps))
        return
    for one in apps:
        typer.echo(_describe(one))


@app.command("rotate")
def rotate(app_id: AppId, as_json: AsJson = False, data_dir: DataDir = None) -> None:
    """A new API key (shown once); the old one is refused from now on."""
    number = _app_id(app_id)

    async def body(feedloom: Feedloom) -> Any:
        return {"api_key": await feedloom.services.apps.admin.rotate(number)}

    rotated = _call(data_dir, "POST", f"/control/apps/{number}/rotate", None, body)
    typer.echo(json.dumps(rotated) if as_json else f"api key {rotated['api_key']} (shown once)")


@app.command("revoke")
def revoke(app_id: AppId, as_json: AsJson = False, data_dir: DataDir = None) -> None:
    """Refuse the app's key and every user token it signed, at once (not undone)."""
    number = _app_id(app_id)

    async def body(feedloom: Feedloom) -> Any:
        from feedloom.api.routes.app_control import app_json

        return app_json(await feedloom.services.apps.admin.revoke(number))

    revoked = _call(data_dir, "POST", f"/control/apps/{number}/revoke", None, body)
    typer.echo(json.dumps(revoked) if as_json else _describe(revoked))


def _local_create(request: dict[str, Any]) -> Callable[[Feedloom], Awaitable[Any]]:
    async def body(feedloom: Feedloom) -> Any:
        from feedloom.api.routes.app_control import AppRequest, create_app

        return await create_app(AppRequest(**request), feedloom)

    return body


def _call(
    data_dir: Path | None,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    local: Callable[[Feedloom], Awaitable[Any]],
) -> Any:
    from feedloom.cli.control import running_server

    settings = command_settings(data_dir)
    server = running_server(settings)
    if server is not None:
        return server.call(method, path, body)
    return run_on_feedloom(settings, local)


def _jwks(path: Path | None, url: str | None, algorithm: str) -> str | None:
    if algorithm == "HS256":
        if path is not None or url is not None:
            fail("--jwks-file and --jwks-url are for EdDSA or RS256 tokens", 2)
        return None
    if (path is None) == (url is None):
        fail(
            f"{algorithm} tokens need the app's public keys: --jwks-file PATH or --jwks-url URL", 2
        )
    if path is None:
        return None  # fetched from the URL when a token needs them (write/jwks.py)
    try:
        text = path.read_text()
        keys = json.loads(text).get("keys")
    except (OSError, ValueError, AttributeError) as error:
        fail(f"{path}: not a JSON Web Key Set ({error})", 2)
    if not isinstance(keys, list) or not keys:
        fail(f"{path}: a JSON Web Key Set has a non-empty `keys` list", 2)
    return text


def _app_id(text: str) -> int:
    if not text.isdigit() or len(text) > 19:
        fail(f"{text!r} is not an app ID", 2)
    return int(text)


def _describe(one: dict[str, Any]) -> str:
    state = f"revoked {one['revoked_at'][:16]}Z" if one.get("revoked_at") else "active"
    return (
        f"{one['name']} (app {one['app_id']}), {state}\n"
        f"  scopes {','.join(one['scopes'])}; user tokens {','.join(one['algorithms'])}"
        + (", creates users" if one.get("create_users") else "")
    )
