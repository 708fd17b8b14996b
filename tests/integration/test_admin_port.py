"""`feedloom serve` with an admin port: two real uvicorn servers in one process."""

from __future__ import annotations

import asyncio
import socket

import httpx
import uvicorn

from feedloom.api.admin import create_admin_app
from feedloom.api.app import create_app
from feedloom.api.serving import AdminServer, serve_with_admin
from feedloom.settings import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_the_admin_port_serves_metrics_and_the_public_port_does_not(
    settings: Settings,
) -> None:
    public_port, admin_port = free_port(), free_port()
    settings = settings.model_copy(update={"admin_port": admin_port})
    app = create_app(settings, inline_worker=False)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=public_port, log_config=None)
    )
    admin = AdminServer(
        uvicorn.Config(
            create_admin_app(app, settings),
            host="127.0.0.1",
            port=admin_port,
            lifespan="off",
            log_config=None,
        )
    )
    serving = asyncio.create_task(serve_with_admin(server, admin))
    try:
        for _ in range(400):  # up to 20 s
            if server.started and admin.started:
                break
            await asyncio.sleep(0.05)
        assert server.started and admin.started, "the servers did not start"
        async with httpx.AsyncClient(timeout=5) as http:
            public, private = f"http://127.0.0.1:{public_port}", f"http://127.0.0.1:{admin_port}"
            assert (await http.get(f"{public}/healthz")).status_code == 200
            assert (await http.get(f"{public}/metrics")).status_code == 404
            assert (await http.get(f"{private}/readyz")).json()["status"] == "ready"
            metrics = await http.get(f"{private}/metrics")
        assert metrics.status_code == 200
        assert 'route="/healthz"' in metrics.text
    finally:
        server.should_exit = True
        async with asyncio.timeout(20):
            await serving
    # Stopping the API server stopped the admin server with it.
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", admin_port)) != 0
