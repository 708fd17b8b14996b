"""A real uvicorn server in the test's own process, configured as `feedloom serve`
configures it (api/serving.py `api_config`), on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI

from feedloom.api.serving import ApiServer, api_config
from feedloom.settings import Settings
from tests.integration.processes import free_port

START_TIMEOUT_S = 60.0


@contextlib.asynccontextmanager
async def served(app: FastAPI, settings: Settings) -> AsyncIterator[str]:
    """Serve `app` (its lifespan included) and yield its base URL."""
    port = free_port()
    server = ApiServer(api_config(app, settings, "127.0.0.1", port))
    serving = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(START_TIMEOUT_S):
            while not server.up.is_set():
                if serving.done():
                    serving.result()  # raises what stopped it
                    raise AssertionError("the server stopped before it was up")
                await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        async with asyncio.timeout(START_TIMEOUT_S):
            await serving
