"""The admin port for real: uvicorn servers on loopback ports, beside the API server
or beside a worker's loops."""

from __future__ import annotations

import asyncio
import socket

import httpx
import uvicorn

from feedloom.api.app import create_app
from feedloom.api.serving import admin_server, serve_admin_while, serve_with_admin
from feedloom.bootstrap import Feedloom
from feedloom.settings import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def refuses_connections(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


async def started(*servers: uvicorn.Server) -> None:
    for _ in range(400):  # up to 20 s
        if all(server.started for server in servers):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the servers did not start")


async def test_the_admin_port_serves_metrics_and_the_public_port_does_not(
    settings: Settings,
) -> None:
    public_port, admin_port = free_port(), free_port()
    settings = settings.model_copy(update={"admin_port": admin_port})
    app = create_app(settings, inline_worker=False)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=public_port, log_config=None)
    )
    admin = admin_server(app.state, settings, admin_port)
    serving = asyncio.create_task(serve_with_admin(server, admin))
    try:
        await started(server, admin)
        async with httpx.AsyncClient(timeout=30) as http:
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
    assert refuses_connections(admin_port)


async def until(stop: asyncio.Event) -> None:
    await stop.wait()


async def test_a_worker_serves_its_own_metrics_on_its_admin_port(
    settings: Settings, embedded_feedloom: Feedloom
) -> None:
    admin_port = free_port()
    settings = settings.model_copy(update={"admin_port": admin_port})
    embedded_feedloom.metrics.fanout_lag.labels("default", "lt100").observe(0.3)
    stop = asyncio.Event()
    working = asyncio.create_task(serve_admin_while(until(stop), embedded_feedloom, settings))
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            for _ in range(400):
                try:
                    metrics = await http.get(f"http://127.0.0.1:{admin_port}/metrics")
                    break
                except httpx.ConnectError:
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("the worker's admin server did not start")
        assert (
            'feedloom_fanout_lag_seconds_count{author_size="lt100",lane="default"} 1.0'
            in metrics.text
        )
        assert "feedloom_outbox_pending 0.0" in metrics.text
        for stage in ("outbox", "outbox_sent", "default", "bulk"):
            assert f'feedloom_oldest_pending_event_seconds{{stage="{stage}"}} 0.0' in metrics.text
    finally:
        stop.set()
        async with asyncio.timeout(20):
            await working
    assert refuses_connections(admin_port)
