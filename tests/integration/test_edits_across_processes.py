"""An edit made through one API process is what the next read through another shows:
two `feedloom serve` processes and a worker on one PostgreSQL schema and Redis prefix,
each process keeping views in its near cache (adapters/redis/wire/near_cache.py).
The reader warms the other process's caches first (feed, post page, thread, search),
then the author edits, and the very next reads there show the new text, with no wait."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from feedloom.settings import Settings
from tests.integration.processes import fleet
from tests.limits import lifted_rate_limit_env
from tests.servers import (
    POSTGRES_URL,
    REDIS_URL,
    TEST_SECRET_KEY,
    postgres_settings,
    redis_settings,
    scratch_redis_prefix,
    scratch_schema,
)
from tests.world import PASSWORD

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
async def stack(settings: Settings) -> AsyncIterator[Settings]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(settings, schema), prefix)


async def sign_up(client: httpx.AsyncClient, url: str, name: str) -> tuple[str, dict[str, str]]:
    body = {"username": name, "password": PASSWORD, "display_name": name}
    created = await client.post(f"{url}/v1/accounts", json=body)
    assert created.status_code == 201, created.text
    session = await client.post(f"{url}/v1/sessions", json={"username": name, "password": PASSWORD})
    assert session.status_code == 201, session.text
    return created.json()["id"], {"Authorization": f"Bearer {session.json()['token']}"}


async def texts(
    client: httpx.AsyncClient, url: str, auth: dict[str, str], root: str, post_id: str
) -> Any:
    """What every kind of read on this process shows of the post (a reply to `root`)."""
    feed = (await client.get(f"{url}/v1/feed", headers=auth)).json()["items"]
    page = (await client.get(f"{url}/v1/posts/{post_id}", headers=auth)).json()
    thread = (await client.get(f"{url}/v1/posts/{root}/context", headers=auth)).json()
    found = await client.get(f"{url}/v1/search", params={"q": "world"}, headers=auth)
    return {
        "feed": [item["text"] for item in feed if item["post_id"] == post_id],
        "page": page["text"],
        "thread": [item["text"] for item in thread["descendants"]],
        "search": [item["text"] for item in found.json()["items"]],
    }


async def test_an_edit_through_one_process_is_read_at_once_through_another(
    stack: Settings, tmp_path: Path
) -> None:
    assert stack.database_schema is not None
    env = {
        "FEEDLOOM_DATABASE_URL": POSTGRES_URL,
        "FEEDLOOM_DATABASE_SCHEMA": stack.database_schema,
        "FEEDLOOM_REDIS_URL": REDIS_URL,
        "FEEDLOOM_REDIS_PREFIX": stack.redis_prefix,
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        **lifted_rate_limit_env(),
    }
    with fleet(env, tmp_path) as processes:
        one, other = processes.api("api-1", worker_id=11), processes.api("api-2", worker_id=12)
        processes.worker("worker", worker_id=13)
        await processes.wait_ready()
        assert one.url is not None and other.url is not None
        async with httpx.AsyncClient(timeout=30) as client:
            kim_id, kim = await sign_up(client, one.url, "kim")
            reader_id, reader = await sign_up(client, other.url, "reader")
            await client.put(f"{other.url}/v1/users/{kim_id}/follow", headers=reader)
            posted = await client.post(f"{one.url}/v1/posts", json={"text": "root"}, headers=kim)
            root = posted.json()["post_id"]
            reply = await client.post(
                f"{one.url}/v1/posts",
                json={"text": "hello wrld world", "in_reply_to": root},
                headers=kim,
            )
            post_id = reply.json()["post_id"]
            old = {
                "feed": ["hello wrld world"],
                "page": "hello wrld world",
                "thread": ["hello wrld world"],
                "search": ["hello wrld world"],
            }
            deadline = time.monotonic() + 60
            while (await texts(client, other.url, reader, root, post_id))["feed"] != old["feed"]:
                assert time.monotonic() < deadline, processes.tails()  # fanned out
                await asyncio.sleep(0.2)
            for _ in range(2):  # the second read is served from the near cache
                assert await texts(client, other.url, reader, root, post_id) == old
            edited = await client.patch(
                f"{one.url}/v1/posts/{post_id}",
                json={"text": "hello world, fixed"},
                headers=kim,
            )
            assert edited.status_code == 200, edited.text
            new = await texts(client, other.url, reader, root, post_id)
            assert new == {
                "feed": ["hello world, fixed"],
                "page": "hello world, fixed",
                "thread": ["hello world, fixed"],
                "search": ["hello world, fixed"],
            }, processes.tails()
            assert reader_id != kim_id
