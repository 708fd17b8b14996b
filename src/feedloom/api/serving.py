"""Run the API under uvicorn, and beside it the admin app when it has a port and, on
the embedded default, the control channel (api/control.py); or the admin app beside a
worker's loops.

The admin server shares the process and the event loop with what it watches, so it
reads the very Metrics registry and stores that process records into. It never owns the
signals: the API server (or the worker's handlers) stop on SIGINT/SIGTERM, and stop
the admin server on their way out.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import secrets
import socket
from collections.abc import Awaitable, Iterator, Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI
from starlette.datastructures import State

from feedloom.api.admin import create_admin_app
from feedloom.api.control import (
    ControlAddress,
    create_control_app,
    remove_control_file,
    write_control_file,
)
from feedloom.api.http_limits import ParserLimits, limited_protocol
from feedloom.bootstrap import Feedloom
from feedloom.loops import eager
from feedloom.settings import Settings


def serve_http(
    app: FastAPI, settings: Settings, host: str, port: int, reuse_port: bool = False
) -> None:
    """`reuse_port`: bind with SO_REUSEPORT, so several `feedloom serve` processes (each
    with its own FEEDLOOM_WORKER_ID) listen on one port and the kernel spreads the
    connections over them (docs/PRODUCTION.md, "One machine")."""
    config = api_config(app, settings, host, port)
    server = ApiServer(config)
    sockets = [shared_port_socket(host, port)] if reuse_port else None
    beside = (
        []
        if settings.admin_port is None
        else [admin_server(app.state, settings, settings.admin_port)]
    )
    control = ControlChannel(server, app.state, settings) if settings.is_embedded else None
    with asyncio.Runner(loop_factory=eager(config.get_loop_factory())) as runner:
        runner.run(serve_beside(server, beside, sockets, control))


def api_config(app: FastAPI, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """The API server's uvicorn configuration (tests start servers with it too)."""
    # log_config=None: uvicorn's own lines go through logs.configure_logging's handler
    # (same format, request IDs on access lines) instead of handlers of its own.
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level=settings.log_level.lower(),
        access_log=settings.http.access_log,
        **limited_http(settings),
    )


def limited_http(settings: Settings) -> dict[str, Any]:
    """uvicorn options for the parser limits of `settings.http` (api/http_limits.py)."""
    return {
        "http": limited_protocol(ParserLimits.of(settings.http)),
        "timeout_keep_alive": settings.http.keep_alive_s,
        # The Mastodon-compatible streaming socket (api/mastodon/streaming.py) is the one
        # WebSocket route; a client sends only small subscribe messages.
        "ws": "websockets-sansio",
        "ws_max_size": 64 * 1024,
        # uvicorn would take the client from X-Forwarded-For of any request from
        # 127.0.0.1 (FORWARDED_ALLOW_IPS): the app decides that (api/forwarded.py).
        "proxy_headers": False,
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
    await serve_beside(server, [admin], sockets)


async def serve_beside(
    server: uvicorn.Server,
    beside: Sequence[uvicorn.Server],
    sockets: list[socket.socket] | None = None,
    control: ControlChannel | None = None,
) -> None:
    """Serve the API; the servers beside it (and the control channel) stop with it."""
    tasks = [asyncio.create_task(other.serve()) for other in beside]
    if control is not None:
        tasks.append(asyncio.create_task(control.run()))
    try:
        await server.serve(sockets=sockets)
    finally:
        for other in beside:
            other.should_exit = True
        if control is not None:
            control.stop()
        await asyncio.gather(*tasks)


class ApiServer(uvicorn.Server):
    """Tells the servers beside it when it is up (its lifespan built the Feedloom)
    and when it starts to stop. (After a SIGTERM uvicorn re-raises the signal once it
    is done, which ends the process before any code after `serve` would run.)"""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.up, self.stopping = asyncio.Event(), asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            settle_heap()
            self.up.set()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.stopping.set()
        await super().shutdown(sockets)


# Young objects between collections (CPython's default: 700). A feed read allocates a few
# thousand short-lived objects; collecting every 700 cost ~6 % of a warm read's CPU
# (0.712 against 0.668 ms, three alternating rounds each, docs/BENCHMARKS.md). The older
# generations keep CPython's ratios: 50 and 100 saved no more and let a collection of
# the middle generation walk up to a million survivors at once.
GC_THRESHOLDS = (10_000, 10, 10)


def settle_heap() -> None:
    """Once the process is built: what startup made (modules, the app and its schemas,
    the stores) lives as long as the process, so move it out of the collector's sight.
    A full collection then walks only what requests made since (in the read bench's
    process, frozen after setup, full collections took a quarter of the time), and the
    young generation is collected less often (GC_THRESHOLDS)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class ControlChannel:
    """The control server on a loopback port of its own, announced in control.json
    while the API is up, withdrawn as soon as it starts to stop."""

    def __init__(self, api: ApiServer, state: State, settings: Settings) -> None:
        self._api, self._data_dir = api, settings.data_dir
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        port = self._listener.getsockname()[1]
        self.address = ControlAddress(port, secrets.token_urlsafe(32), os.getpid())
        app = create_control_app(state, self.address.token)
        self._server = BesideServer(
            uvicorn.Config(
                app, lifespan="off", log_config=None, log_level=settings.log_level.lower()
            )
        )
        self._stopped = asyncio.Event()

    async def run(self) -> None:
        serving = asyncio.create_task(self._server.serve(sockets=[self._listener]))
        if await _first(self._api.up, self._stopped) is self._api.up:
            write_control_file(self._data_dir, self.address)
            await _first(self._api.stopping, self._stopped)
        self.stop()
        await serving

    def stop(self) -> None:
        remove_control_file(self._data_dir, self.address)
        self._server.should_exit = True
        self._stopped.set()


async def _first(*events: asyncio.Event) -> asyncio.Event:
    """Whichever of `events` is set first."""
    waits = {asyncio.create_task(event.wait()): event for event in events}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return waits[next(iter(done))]


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


def admin_server(state: State, settings: Settings, port: int) -> BesideServer:
    app = create_admin_app(state, settings)
    return BesideServer(
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


class BesideServer(uvicorn.Server):
    """Leaves the signal handlers to the API server, which stops this one."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
