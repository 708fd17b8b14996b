"""The control channel: how a `feedloom` command reaches a running embedded server.

An embedded server keeps its timelines, sessions and views in its own memory, so an
operator's command run in another process (`feeds show|build|clear`, `accounts
suspend|reinstate|modify|role|delete`) must act inside that server to take effect at
once. The server therefore listens on a loopback port of its own (127.0.0.1, chosen by
the OS, never the public port) and writes `control.json` into its data dir: the port,
a bearer token drawn at start and its pid, readable by the data dir's owner only
(0600). A command run on the same data dir reads it and calls the server; a request
without the token is answered 401. The server removes the file when it stops; a file
left by a server that died (its pid gone, its port closed) is ignored.

With Redis (production) there is no control channel: the timelines and caches are
shared, and the commands act on them directly.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Header
from starlette.datastructures import State

from feedloom.api.problems import install_problem_handlers
from feedloom.api.routes import app_control, control
from feedloom.domain.errors import Unauthorized

CONTROL_FILE = "control.json"


@dataclass(frozen=True, slots=True)
class ControlAddress:
    """Where a running embedded server takes control calls, and what it asks for."""

    port: int
    token: str
    pid: int


def control_path(data_dir: Path) -> Path:
    return data_dir / CONTROL_FILE


def write_control_file(data_dir: Path, address: ControlAddress) -> None:
    """Atomically, and created 0600: the token must never be readable by others."""
    path = control_path(data_dir)
    partial = path.with_name(f".{CONTROL_FILE}.{address.pid}.part")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        json.dump(asdict(address), out)
    os.replace(partial, path)


def read_control_file(data_dir: Path) -> ControlAddress | None:
    try:
        fields = json.loads(control_path(data_dir).read_text())
        return ControlAddress(int(fields["port"]), str(fields["token"]), int(fields["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove_control_file(data_dir: Path, address: ControlAddress) -> None:
    """Only if it still names this server (a newer one may have replaced it)."""
    if read_control_file(data_dir) == address:
        with contextlib.suppress(FileNotFoundError):
            control_path(data_dir).unlink()


def create_control_app(state: State, token: str) -> FastAPI:
    """The control routes over `state.feedloom` (the API's own, so serve with
    `lifespan="off"`), every one behind the bearer token."""
    expected = token.encode()

    async def authorized(authorization: Annotated[str | None, Header()] = None) -> None:
        scheme, _, given = (authorization or "").partition(" ")
        # Constant time, so the token cannot be guessed byte by byte.
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), expected):
            raise Unauthorized(f"send `Authorization: Bearer` with the token of {CONTROL_FILE}")

    app = FastAPI(
        title="feedloom control",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(authorized)],
    )
    app.state = state
    install_problem_handlers(app)
    app.include_router(control.router)
    app.include_router(app_control.router)
    return app
