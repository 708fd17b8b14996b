"""Run the API under uvicorn, and the admin app beside it when it has a port.

Both servers share one process and one event loop, so the admin app reads the very
Metrics registry and backend the API records into. The API server owns the signals:
SIGINT/SIGTERM stop it (after its lifespan has shut down), and it stops the admin
server on its way out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI

from feedloom.api.admin import create_admin_app
from feedloom.settings import Settings


def serve_http(app: FastAPI, settings: Settings, host: str, port: int) -> None:
    # log_config=None: uvicorn's own lines go through logs.configure_logging's handler
    # (same format, request IDs on access lines) instead of handlers of its own.
    config = uvicorn.Config(
        app, host=host, port=port, log_config=None, log_level=settings.log_level.lower()
    )
    server = uvicorn.Server(config)
    if settings.admin_port is None:
        server.run()
        return
    admin = AdminServer(
        uvicorn.Config(
            create_admin_app(app, settings),
            host=settings.admin_host,
            port=settings.admin_port,
            lifespan="off",
            log_config=None,
            log_level=settings.log_level.lower(),
        )
    )
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(serve_with_admin(server, admin))


async def serve_with_admin(server: uvicorn.Server, admin: uvicorn.Server) -> None:
    admin_serving = asyncio.create_task(admin.serve())
    try:
        await server.serve()
    finally:
        admin.should_exit = True
        await admin_serving


class AdminServer(uvicorn.Server):
    """Leaves the signal handlers to the API server, which stops this one."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
