"""`feedloom feeds` and `feedloom accounts` on the embedded default, as an operator
runs them: a real `feedloom serve` on a data dir, and the commands in processes of
their own on that data dir, acting at once inside the server (api/control.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.integration.processes import Fleet, fleet

PORT = 7542  # the visibility range, 7500-7599
PASSWORD = "correct horse battery"
FAST_HASHES = {"FEEDLOOM_PASSWORD_HASH_TIME_COST": "1", "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": "256"}


def feedloom_cli(data_dir: Path, *args: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **FAST_HASHES, "COLUMNS": "80"}
    env.pop("FEEDLOOM_REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "feedloom", *args, "--data-dir", str(data_dir)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == expect, done.stdout + done.stderr
    return done


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[Fleet, Path]]:
    data_dir = tmp_path / "data"
    with fleet(FAST_HASHES, tmp_path) as running:
        args = ("serve", "--no-demo", "--port", str(PORT), "--data-dir", str(data_dir))
        running.start("api", *args, worker_id=1, url=f"http://127.0.0.1:{PORT}")
        await running.wait_ready()
        yield running, data_dir


class Client:
    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def user(self, username: str) -> tuple[str, dict[str, str]]:
        body = {"username": username, "password": PASSWORD}
        created = await self.http.post("/v1/accounts", json=body)
        assert created.status_code == 201, created.text
        token = (await self.http.post("/v1/sessions", json=body)).json()["token"]
        return created.json()["id"], {"Authorization": f"Bearer {token}"}

    async def feed(self, auth: dict[str, str]) -> list[str]:
        response = await self.http.get("/v1/feed", headers=auth)
        assert response.status_code == 200, response.text
        return [item["post_id"] for item in response.json()["items"]]

    async def feed_until(self, auth: dict[str, str], expected: list[str]) -> None:
        """The inline worker fans out in the background: wait for it, boundedly."""
        deadline = time.monotonic() + 30
        while (ids := await self.feed(auth)) != expected and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.1)
        assert ids == expected


async def test_feed_and_account_commands_act_inside_the_running_embedded_server(
    server: tuple[Fleet, Path],
) -> None:
    running, data_dir = server
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}", timeout=10) as http:
        client = Client(http)
        alice_id, alice = await client.user("alice")
        _, bob = await client.user("bob")
        assert (await http.put(f"/v1/users/{alice_id}/follow", headers=bob)).status_code == 200
        post = (await http.post("/v1/posts", json={"text": "hi bob"}, headers=alice)).json()
        await client.feed_until(bob, [post["post_id"]])

        shown = feedloom_cli(data_dir, "feeds", "show", "bob").stdout.splitlines()
        assert shown[0].startswith("bob (id ") and ": 1 entries" in shown[0]
        assert shown[2].split()[0] == post["post_id"] and shown[2].split()[-2:] == [
            "alice",
            "pushed",
        ]
        assert max(map(len, shown)) <= 80
        assert "cleared 2 timelines" in feedloom_cli(data_dir, "feeds", "clear", "--all").stdout
        assert "no cached timeline" in feedloom_cli(data_dir, "feeds", "show", "bob").stdout
        assert "rebuilt 1 timelines" in feedloom_cli(data_dir, "feeds", "build", "bob").stdout
        assert ": 1 entries" in feedloom_cli(data_dir, "feeds", "show", "bob").stdout

        # A suspension reaches the server's cached sessions and views at once.
        assert "suspended" in feedloom_cli(data_dir, "accounts", "suspend", "alice").stdout
        assert (await http.get("/v1/me", headers=alice)).status_code == 401
        assert await client.feed(bob) == []
        assert "active" in feedloom_cli(data_dir, "accounts", "reinstate", "alice").stdout
        assert await client.feed(bob) == [post["post_id"]]

        refused = feedloom_cli(data_dir, "feeds", "show", "nobody", expect=1)
        assert refused.stderr == "feedloom: no account named 'nobody'\n"

    running.stop()
    assert not (data_dir / "control.json").exists()
    gone = feedloom_cli(data_dir, "feeds", "build", "--all", expect=1)
    assert gone.stderr.startswith("feedloom: no feedloom server is running on ")
    # With no server running, an account change is made in the store directly.
    assert "suspended" in feedloom_cli(data_dir, "accounts", "suspend", "alice").stdout


async def test_the_control_port_is_private_to_the_data_dirs_owner(
    server: tuple[Fleet, Path],
) -> None:
    _, data_dir = server
    control = data_dir / "control.json"
    assert control.stat().st_mode & 0o077 == 0
    address = json.loads(control.read_text())
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{address['port']}") as http:
        for headers in ({}, {"Authorization": "Bearer not-the-token"}):
            refused = await http.post("/control/feeds/clear", json={}, headers=headers)
            assert refused.status_code == 401
        assert (await http.get("/control/feeds/x")).status_code == 401
    # The public port has no control routes.
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}") as http:
        auth = {"Authorization": f"Bearer {address['token']}"}
        assert (await http.post("/control/feeds/clear", json={}, headers=auth)).status_code == 404
