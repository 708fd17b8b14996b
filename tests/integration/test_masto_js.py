"""masto.js, a client we did not write, drives a scripted session
(tests/mastodon_js/session.mjs) against a server this test starts, on every backend:
sign in with PKCE through the form, verify credentials, post an image with an
Idempotency-Key, follow, page the home timeline three times by `Link`, favourite,
reblog, reply and read the context, get an `update` on the WebSocket user stream,
receive a notification (a follow: live on the socket, then listed ungrouped and
grouped, marked read and dismissed), edit a status, delete it and see it gone. Its
packages are pinned by the directory's package-lock.json and installed by
scripts/_tools (`npm ci`), never by the test."""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
from pathlib import Path

import httpx
import pytest

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.images import png
from tests.integration.served import served
from tests.servers import in_ci

SESSION = Path(__file__).parent.parent / "mastodon_js"
PASSWORD = "correct horse battery"
SESSION_TIMEOUT_S = 120.0


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (SESSION / "node_modules" / "masto").is_dir():
        why = "node or tests/mastodon_js/node_modules (npm ci) is missing"
        if in_ci():
            pytest.fail(f"{why}: scripts/_tools installs them", pytrace=False)
        pytest.skip(why)
    return node


async def test_a_masto_js_session_runs_end_to_end(app_settings: Settings) -> None:
    node = _node()
    app = create_app(app_settings)
    async with served(app, app_settings) as url:
        users = ["mjs_alice", "mjs_bob"]
        async with httpx.AsyncClient(base_url=url) as client:
            for name in users:
                body = {"username": name, "password": PASSWORD, "display_name": name}
                assert (await client.post("/v1/accounts", json=body)).status_code == 201
        env = {**os.environ, "SESSION_PNG_BASE64": base64.b64encode(png()).decode()}
        process = await asyncio.create_subprocess_exec(
            node,
            "--experimental-websocket",
            "session.mjs",
            url,
            PASSWORD,
            *users,
            cwd=SESSION,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            async with asyncio.timeout(SESSION_TIMEOUT_S):
                output, _ = await process.communicate()
        except TimeoutError:
            process.kill()
            output, _ = await process.communicate()
            pytest.fail(f"the session did not end in time:\n{output.decode()}")
    assert process.returncode == 0, output.decode()
    assert "masto.js session: ok" in output.decode()
