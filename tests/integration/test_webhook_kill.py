"""A worker killed (SIGKILL) while webhook deliveries are pending: every event still
reaches the receiver, at least once, and an event received twice came with the same
`webhook-id` both times; on both backends (PostgreSQL + Redis with a separate
`feedloom worker`; the embedded default, whose worker runs inside `feedloom serve`).

This process plays the API: it makes the app, its webhook and the posts (each event in
its write's transaction). The worker process stores the deliveries and sends them to a
slow receiver this test runs; it is killed once some have arrived and not all, and a
new one finishes (sends cut short are due again when their lease ends).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from standardwebhooks import Webhook as Verifier

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.apps import parse_scopes
from feedloom.domain.model import Visibility
from feedloom.settings import Settings, WebhookSettings
from feedloom.write.app_users import UserFields
from tests.integration.processes import Fleet, Process, fleet, free_port
from tests.integration.test_notification_kill import base_settings, process_env_of
from tests.receiver import Receiver, receiver
from tests.servers import postgres_settings, redis_settings, scratch_redis_prefix, scratch_schema

pytestmark = [pytest.mark.slow]
POSTS = 40
DRAIN_S = 120.0  # the cut-short sends wait out their lease (timeout + 30 s)
HOOK_ENV = {
    "FEEDLOOM_WEBHOOKS__ALLOW_LOOPBACK": "true",
    "FEEDLOOM_WEBHOOKS__PER_RECEIVER": "2",
    "FEEDLOOM_WEBHOOKS__TIMEOUT_S": "1",
}


def with_hooks(settings: Settings) -> Settings:
    hooks = WebhookSettings(allow_loopback=True, timeout_s=1.0)
    return settings.model_copy(update={"webhooks": hooks})


async def write_posts(feedloom: Feedloom, url: str) -> tuple[str, set[str]]:
    """An app with a webhook for posts, a user of it, and POSTS posts by that user."""
    apps = feedloom.services.apps
    made = await apps.admin.create("kill app", parse_scopes("webhooks:manage"), None)
    app_id = made.app.app_id
    user_id = (await apps.users.upsert(app_id, "writer", UserFields("hook_writer"))).user_id
    assert user_id is not None
    assert apps.webhooks is not None
    hook = await apps.webhooks.create(app_id, url, ["post.created"])
    posted = set()
    for n in range(POSTS):
        published = await feedloom.services.publish(
            user_id, f"post {n}", [], Visibility.PUBLIC, None
        )
        posted.add(str(published.post_id))
    return hook.secret, posted


def received(hooks: Receiver, secret: str) -> dict[str, set[str]]:
    """post ID -> the webhook-ids it arrived with (each verified)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for got in list(hooks.received):
        payload = Verifier(secret).verify(got.body, got.headers)
        assert payload == json.loads(got.body)
        seen[payload["data"]["post_id"]].add(got.headers["webhook-id"])
    return seen


async def scenario(
    settings: Settings, tmp_path: Path, start: Callable[[Fleet, int], Process]
) -> None:
    with receiver() as hooks:
        hooks.on("/hook", *[(200, 0.1)] * (POSTS * 2))  # slow: deliveries stay pending
        async with open_feedloom(with_hooks(settings)) as feedloom:
            secret, posted = await write_posts(feedloom, hooks.url())
        with fleet({**process_env_of(settings), **HOOK_ENV}, tmp_path) as running:
            first = start(running, 1)
            deadline = time.monotonic() + DRAIN_S
            while len(received(hooks, secret)) < 3:
                assert time.monotonic() < deadline and first.popen.poll() is None, first.tail()
                await asyncio.sleep(0.02)
            os.kill(first.pid, signal.SIGKILL)
            first.popen.wait()
            assert len(received(hooks, secret)) < POSTS, "killed too late: all delivered"
            start(running, 2)
            while set(received(hooks, secret)) != posted:
                assert time.monotonic() < deadline, running.tails()
                await asyncio.sleep(0.2)
        by_post = received(hooks, secret)
        assert set(by_post) == posted
        assert all(len(ids) == 1 for ids in by_post.values()), by_post


@pytest.fixture
async def production(tmp_path: Path) -> AsyncIterator[Settings]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(base_settings(tmp_path), schema), prefix)


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_killed_worker_delivers_every_webhook_with_one_id_on_postgres_and_redis(
    production: Settings, tmp_path: Path
) -> None:
    def worker(running: Fleet, n: int) -> Process:
        return running.worker(f"worker{n}", worker_id=10 + n)

    await scenario(production, tmp_path, worker)


async def test_a_killed_embedded_server_delivers_every_webhook_with_one_id(
    tmp_path: Path,
) -> None:
    def serve(running: Fleet, n: int) -> Process:
        args = ("serve", "--no-demo", "--port", str(free_port()))
        return running.start(f"serve{n}", *args, worker_id=10 + n)

    await scenario(base_settings(tmp_path), tmp_path, serve)
