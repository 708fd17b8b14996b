"""The documented one-machine production layout (ops/one-machine/feedloom-up, docs/
PRODUCTION.md "One machine"), started the documented way: an env file, `migrate` on a
schema that does not exist yet, two API processes sharing one port, one worker. A short
load goes through the shared port (sign up, follow, post, read); then SIGTERM stops
every process and the script exits 0."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.integration.processes import free_port
from tests.servers import POSTGRES_URL, REDIS_URL, scratch_redis_prefix, scratch_schema

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

SCRIPT = Path(__file__).parents[2] / "ops" / "one-machine" / "feedloom-up"
USERS, FOLLOWS_EACH = 8, 3
PASSWORD = "correct horse battery"
READY_TIMEOUT_S = READ_TIMEOUT_S = 90.0


@pytest.fixture
async def env_file(tmp_path: Path) -> AsyncIterator[Path]:
    async with scratch_schema(migrated=False) as schema, scratch_redis_prefix() as prefix:
        path = tmp_path / "feedloom.env"
        path.write_text(
            "\n".join(
                [
                    "FEEDLOOM_ENVIRONMENT=production",
                    f"FEEDLOOM_DATABASE_URL={POSTGRES_URL}",
                    f"FEEDLOOM_DATABASE_SCHEMA={schema}",
                    f"FEEDLOOM_REDIS_URL={REDIS_URL}",
                    f"FEEDLOOM_REDIS_PREFIX={prefix}",
                    "FEEDLOOM_SECRET_KEY=a-test-secret-that-is-not-the-placeholder",
                    "FEEDLOOM_PASSWORD_HASH_TIME_COST=1",
                    "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB=256",
                    "FEEDLOOM_RATE_LIMITS__SIGN_UP_PER_ADDRESS=1000/minute",
                    "",
                ]
            )
        )
        yield path


async def test_the_one_machine_layout_serves_a_short_load_and_stops_cleanly(
    env_file: Path, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "feedloom-up.log"
    script = start_layout(env_file, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            await wait_until_both_apis_answer(client, script, log)
            await short_load(client)
    finally:
        if script.poll() is None:
            script.send_signal(signal.SIGTERM)
        code = script.wait(timeout=60)
    output = text_of(log)
    assert code == 0, output
    assert output.count("feedloom on http://") == 2, output  # two API processes
    assert "worker stopped" in output, output


def start_layout(env_file: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """As the docs say, with this interpreter's feedloom and none of our FEEDLOOM_*."""
    command = f"{sys.executable} -m feedloom"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDLOOM_")}
    with log.open("wb") as out:
        return subprocess.Popen(
            [str(SCRIPT), "--env", str(env_file), "--api", "2", "--workers", "1",
             "--port", str(port), "--command", command],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip


def text_of(log: Path) -> str:
    return log.read_text(errors="replace")


async def wait_until_both_apis_answer(
    client: httpx.AsyncClient, script: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while text_of(log).count("Application startup complete") < 2:
        assert script.poll() is None and time.monotonic() < deadline, text_of(log)
        await asyncio.sleep(0.3)
    while True:
        try:
            if (await client.get("/readyz")).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, text_of(log)
        await asyncio.sleep(0.3)


async def short_load(client: httpx.AsyncClient) -> None:
    names = [f"one_{n}" for n in range(USERS)]
    ids, auth = {}, {}
    for name in names:
        created = await client.post("/v1/accounts", json={"username": name, "password": PASSWORD})
        assert created.status_code == 201, created.text
        session = await client.post("/v1/sessions", json={"username": name, "password": PASSWORD})
        ids[name] = created.json()["id"]
        auth[name] = {"Authorization": f"Bearer {session.json()['token']}"}
    expected: dict[str, set[str]] = {name: set() for name in names}
    for n, name in enumerate(names):
        followees = [names[(n + k) % USERS] for k in range(1, FOLLOWS_EACH + 1)]
        for followee in followees:
            followed = await client.put(f"/v1/users/{ids[followee]}/follow", headers=auth[name])
            assert followed.status_code == 200, followed.text
    for n, name in enumerate(names):
        posted = await client.post(
            "/v1/posts", json={"text": f"hi from {name}"}, headers=auth[name]
        )
        assert posted.status_code == 201, posted.text
        for k in range(1, FOLLOWS_EACH + 1):  # who follows `name`: the ones k behind it
            expected[names[(n - k) % USERS]].add(posted.json()["post_id"])
    # Fan-out runs in the worker process: every reader sees its followees' posts soon.
    deadline = time.monotonic() + READ_TIMEOUT_S
    for name in names:
        while True:
            feed = await client.get("/v1/feed", params={"limit": 50}, headers=auth[name])
            assert feed.status_code == 200, feed.text
            if expected[name] <= {item["post_id"] for item in feed.json()["items"]}:
                break
            assert time.monotonic() < deadline, (name, feed.json())
            await asyncio.sleep(0.5)
