"""Run the API under uvicorn, and the admin app beside it when it has a port; or the
admin app beside a worker's loops.

The admin server shares the process and the event loop with what it watches, so it
reads the very Metrics registry and stores that process records into. It never owns the
signals: the API server (or the worker's handlers) stop on SIGINT/SIGTERM, and stop
the admin server on their way out.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI
from starlette.datastructures import State

from feedloom.api.admin import create_admin_app
from feedloom.api.http_limits import ParserLimits, limited_protocol
from feedloom.bootstrap import Feedloom
from feedloom.settings import Settings


def serve_http(
    app: FastAPI, settings: Settings, host: str, port: int, reuse_port: bool = False
) -> None:
    """`reuse_port`: bind with SO_REUSEPORT, so several `feedloom serve` processes (each
    with its own FEEDLOOM_WORKER_ID) listen on one port and the kernel spreads the
    connections over them (docs/PRODUCTION.md, "One machine")."""
    # log_config=None: uvicorn's own lines go through logs.configure_logging's handler
    # (same format, request IDs on access lines) instead of handlers of its own.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level=settings.log_level.lower(),
        **limited_http(settings),
    )
    server = uvicorn.Server(config)
    sockets = [shared_port_socket(host, port)] if reuse_port else None
    if settings.admin_port is None:
        server.run(sockets=sockets)
        return
    admin = admin_server(app.state, settings, settings.admin_port)
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(serve_with_admin(server, admin, sockets))


def limited_http(settings: Settings) -> dict[str, Any]:
    """uvicorn options for the parser limits of `settings.http` (api/http_limits.py)."""
    return {
        "http": limited_protocol(ParserLimits.of(settings.http)),
        "timeout_keep_alive": settings.http.keep_alive_s,
        "ws": "none",  # no WebSocket routes: an upgrade request is plain HTTP
    }


def shared_port_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind((host, port))
    return listener


async def serve_with_admin(
    server: uvicorn.Server, admin: uvicorn.Server, sockets: list[socket.socket] | None = None
) -> None:
    admin_serving = asyncio.create_task(admin.serve())
    try:
        await server.serve(sockets=sockets)
    finally:
        admin.should_exit = True
        await admin_serving


async def serve_admin_while(work: Awaitable[None], feedloom: Feedloom, settings: Settings) -> None:
    """Await `work` (a worker's loops); meanwhile, with an admin port set, serve
    /healthz, /readyz and /metrics of `feedloom` there."""
    if settings.admin_port is None:
        await work
        return
    state = State()
    state.feedloom = feedloom
    admin = admin_server(state, settings, settings.admin_port)
    admin_serving = asyncio.create_task(admin.serve())
    try:
        await work
    finally:
        admin.should_exit = True
        await admin_serving


def admin_server(state: State, settings: Settings, port: int) -> AdminServer:
    app = create_admin_app(state, settings)
    return AdminServer(
        uvicorn.Config(
            app,
            host=settings.admin_host,
            port=port,
            lifespan="off",
            log_config=None,
            log_level=settings.log_level.lower(),
            **limited_http(settings),
        )
    )


class AdminServer(uvicorn.Server):
    """Leaves the signal handlers to the API server, which stops this one."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
