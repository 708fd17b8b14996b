"""The files on the call chains from GET /v1/feed's route to the Redis wire (issue 38).

A profile hook snapshots the Python stack whenever feedloom code hands a command to the
wire (`_join` of the automatic pipeline) or the wire writes to a connection (`send`);
a task factory carries each task's creating stack, so `asyncio.gather` children count
their parents' chain. Chains of the request (they pass through `api/`) and the wire's
own send tasks are kept; the inline worker's calls, made meanwhile, are not."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.lifespan import lifespan_of

from feedloom.api.app import create_app
from feedloom.bench.stores import scratch_store, settings_from_env

SRC = str(Path(__file__).resolve().parents[1] / "src" / "feedloom") + os.sep
WIRE = "adapters/redis/wire/"
PASSWORD = "correct-horse-battery"

chains: list[list[str]] = []
origins: dict[int, list[str]] = {}


def files_of(frame: FrameType | None) -> list[str]:
    found = []
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(SRC):
            found.append(name[len(SRC) :])
        frame = frame.f_back
    return found


def hook(frame: FrameType, event: str, arg: object) -> None:
    code = frame.f_code
    if event == "call" and code.co_name in ("_join", "send") and WIRE in code.co_filename:
        task = asyncio.current_task()
        chains.append(files_of(frame) + (origins.get(id(task), []) if task else []))


def task_factory(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
) -> asyncio.Task[Any]:
    parent = asyncio.current_task(loop)
    task = asyncio.Task(coro, loop=loop, **kwargs)
    origins[id(task)] = files_of(sys._getframe(1)) + (origins.get(id(parent), []) if parent else [])
    return task


async def traced_read(client: httpx.AsyncClient, token: str) -> tuple[int, list[str]]:
    chains.clear()
    sys.setprofile(hook)
    try:
        await client.get("/v1/feed?limit=20", headers={"Authorization": f"Bearer {token}"})
    finally:
        sys.setprofile(None)
    kept = [c for c in chains if any(f.startswith("api/") for f in c) or all(WIRE in f for f in c)]
    return len(kept), sorted({f for chain in kept for f in chain})


async def main() -> None:
    async with scratch_store("postgres") as store:
        app = create_app(settings_from_env(store.run_env({})))
        async with lifespan_of(app):
            asyncio.get_running_loop().set_task_factory(task_factory)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://feed") as client:
                token = await _small_world(client)
                for label in ("cold", "second", "warm"):
                    calls, files = await traced_read(client, token)
                    print(f"{label} read: {len(files)} files on {calls} chains to Redis")
                    print("".join(f"  {name}\n" for name in files), end="")


async def _small_world(client: httpx.AsyncClient) -> str:
    """A reader who follows two authors of three posts each; returns the reader's token."""
    tokens, ids = [], []
    for name in ("reader", "author1", "author2"):
        await client.post(
            "/v1/accounts", json={"username": name, "password": PASSWORD, "display_name": name}
        )
        signed = await client.post("/v1/sessions", json={"username": name, "password": PASSWORD})
        tokens.append(signed.json()["token"])
        me = await client.get("/v1/me", headers={"Authorization": f"Bearer {tokens[-1]}"})
        ids.append(me.json()["id"])
    for author_id in ids[1:]:
        await client.put(f"/v1/users/{author_id}/follow", headers=_bearer(tokens[0]))
    for token in tokens[1:]:
        for i in range(3):
            await client.post("/v1/posts", json={"text": f"post {i}"}, headers=_bearer(token))
    await asyncio.sleep(2)  # the inline worker fans them out
    return tokens[0]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


if __name__ == "__main__":
    asyncio.run(main())
