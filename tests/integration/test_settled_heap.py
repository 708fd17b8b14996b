"""The API server settles its heap once it is up (api/serving.py `settle_heap`): what
startup built is frozen out of the collector's full passes, the young generation is
collected less often, and only then does the server say it is up."""

from __future__ import annotations

import asyncio
import gc
import warnings

import uvicorn
from fastapi import FastAPI

from feedloom.api.serving import GC_THRESHOLDS, ApiServer
from tests.integration.test_admin_port import free_port


async def test_the_server_is_up_only_with_its_startup_heap_frozen() -> None:
    # tests/conftest.py `collector_as_found` unfreezes and restores the thresholds after.
    assert gc.get_freeze_count() == 0
    # What earlier tests in this process left for the collector (a test client's socket
    # not yet closed, say) is theirs: collected here, not by the server's settle_heap,
    # whose full collection would otherwise report it as this test's.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    gc.set_threshold(700, 10, 10)
    server = ApiServer(uvicorn.Config(FastAPI(), port=free_port(), log_config=None))
    task = asyncio.create_task(server.serve())
    try:
        await asyncio.wait_for(server.up.wait(), 20)
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 60)
