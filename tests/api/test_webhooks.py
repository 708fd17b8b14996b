"""Webhooks: subscribed by an app's key, delivered from the outbox, signed per Standard
Webhooks (verified with the reference library), retried after a 500 and a timeout,
dead-lettered and replayed with the same webhook-id, SSRF targets refused, and a slow
receiver holds no other receiver up."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from standardwebhooks import Webhook as Verifier

from feedloom.settings import Settings, WebhookSettings
from feedloom.write.webhooks import RetryPolicy, WebhookSender
from tests.apps import AppUnderTest, make_app
from tests.conftest import shrunk_settings
from tests.receiver import Receiver, receiver
from tests.world import World


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shrunk = shrunk_settings(tmp_path)
    hooks = WebhookSettings(allow_loopback=True, timeout_s=1.0)
    return shrunk.model_copy(update={"webhooks": hooks})


@pytest.fixture
def hooks() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def sender(world: World) -> WebhookSender:
    found = world.feedloom.services.apps.webhook_sender
    assert found is not None
    return found


def quick_retries(world: World, give_up_after_s: float = 3600) -> None:
    sender(world).policy = RetryPolicy(
        base=timedelta(milliseconds=1),
        cap=timedelta(milliseconds=5),
        give_up_after=timedelta(seconds=give_up_after_s),
        lease=timedelta(seconds=30),
    )


async def subscribe(app: AppUnderTest, url: str, *events: str) -> dict[str, Any]:
    body = {"url": url, "events": list(events or ["post.created"])}
    response = await app.call("post", "/v1/apps/webhooks", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def post_as(app: AppUnderTest, external_id: str, text: str = "hello") -> str:
    response = await app.call("post", f"/v1/apps/users/{external_id}/posts", json={"text": text})
    assert response.status_code == 201, response.text
    post_id: str = response.json()["post_id"]
    return post_id


async def retried_until(world: World, done: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not delivered in time"
        await sender(world).deliver_due()
        await asyncio.sleep(0.02)


async def test_a_post_is_delivered_signed_and_verifies_with_the_reference_library(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    await app.put_user("ada", "hook_ada")
    hook = await subscribe(app, hooks.url(), "post.created", "post.deleted")
    assert hook["secret"].startswith("whsec_") and hook["events"] == [
        "post.created",
        "post.deleted",
    ]
    listed = (await app.call("get", "/v1/apps/webhooks")).json()["items"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    post_id = await post_as(app, "ada")
    await world.settle()
    await sender(world).deliver_due()
    [got] = hooks.at("/hook")
    payload = Verifier(hook["secret"]).verify(got.body, got.headers)
    assert payload["type"] == "post.created"
    assert payload["data"]["post_id"] == post_id and payload["data"]["author"] == "ada"
    assert got.headers["webhook-id"].startswith("msg_")
    await app.call("delete", f"/v1/apps/users/ada/posts/{post_id}")
    await world.settle()
    await sender(world).deliver_due()
    types = [json.loads(r.body)["type"] for r in hooks.at("/hook")]
    assert types == ["post.created", "post.deleted"]
    with pytest.raises(Exception, match="signature"):
        Verifier("whsec_" + "A" * 32).verify(got.body, got.headers)


async def test_a_failed_delivery_is_retried_after_a_500_and_a_timeout_with_the_same_id(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    await app.put_user("bob", "hook_bob")
    await subscribe(app, hooks.url("/flaky"))
    hooks.on("/flaky", (500, 0.0), (200, 1.5))  # a 500, then an answer past the 1 s timeout
    quick_retries(world)
    await post_as(app, "bob")
    await world.settle()
    await retried_until(world, lambda: len(hooks.at("/flaky")) >= 3)
    tries = hooks.at("/flaky")
    assert len({t.headers["webhook-id"] for t in tries}) == 1
    await asyncio.sleep(0.1)
    await sender(world).deliver_due()
    assert len(hooks.at("/flaky")) == 3  # the third took it: nothing more is sent
    [done] = await world.feedloom.stores.webhooks.deliveries("done", 10)
    assert done.attempts == 2


async def test_a_delivery_failing_past_its_day_is_dead_and_a_replay_sends_it_again(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    await app.put_user("cy", "hook_cy")
    await subscribe(app, hooks.url("/down"))
    hooks.on("/down", (503, 0.0))
    quick_retries(world, give_up_after_s=0)
    await post_as(app, "cy")
    await world.settle()
    await sender(world).deliver_due()
    store = world.feedloom.stores.webhooks
    [dead] = await store.deliveries("dead", 10)
    assert dead.attempts == 1 and "503" in (dead.last_error or "")
    assert await store.replay(dead.delivery_id, world.feedloom.runtime.clock())
    await sender(world).deliver_due()
    first, second = hooks.at("/down")
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == f"msg_{dead.delivery_id}"
    assert await store.deliveries("dead", 10) == []


async def test_private_loopback_and_link_local_targets_are_refused(world: World) -> None:
    app = await make_app(world)
    for url in (
        "http://10.0.0.7/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::ffff:192.168.1.1]/x",
        "ftp://example.com/x",
    ):
        response = await app.call(
            "post", "/v1/apps/webhooks", json={"url": url, "events": ["post.created"]}
        )
        assert response.status_code == 422, (url, response.text)
    unknown = {"url": "http://127.0.0.1:9/x", "events": ["everything"]}
    assert (await app.call("post", "/v1/apps/webhooks", json=unknown)).status_code == 422


async def test_loopback_is_refused_unless_the_setting_allows_it(tmp_path: Path) -> None:
    from feedloom.adapters.http.outbound import HttpxOutbound
    from feedloom.domain.errors import TargetRefused

    strict = HttpxOutbound(allow_loopback=False, max_bytes=1024, timeout_s=1)
    try:
        with pytest.raises(TargetRefused):
            await strict.check("http://127.0.0.1:8080/hook")
    finally:
        await strict.aclose()


async def test_a_slow_receiver_holds_up_neither_fan_out_nor_another_receiver(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    for ext, name in (("dee", "hook_dee"), ("eve", "hook_eve")):
        await app.put_user(ext, name)
    await app.call("put", "/v1/apps/users/eve/follows/dee")
    await subscribe(app, hooks.url("/slow"))
    await subscribe(app, hooks.url("/fast"))
    hooks.on("/slow", (200, 0.9))
    post_id = await post_as(app, "dee")
    await world.settle()  # fan-out: it sends no webhook, so no receiver can slow it
    feed = (await app.call("get", "/v1/apps/users/eve/feed")).json()
    assert [item["post_id"] for item in feed["items"]] == [post_id]
    assert hooks.received == []
    start = time.monotonic()
    assert await sender(world).step() == 2  # both sends under way, each its own task
    while not hooks.at("/fast"):
        assert time.monotonic() - start < 0.8, "the fast receiver waited for the slow one"
        await asyncio.sleep(0.01)
    assert hooks.at("/slow") == []
    await sender(world).drain()
    assert len(hooks.at("/slow")) == 1


async def test_a_send_cut_short_by_a_killed_worker_goes_out_again_with_the_same_id(
    world: World, hooks: Receiver
) -> None:
    """What kill -9 leaves: a delivery claimed (leased) and never finished. Once its
    lease runs out it is due again, and another sender delivers it, same webhook-id."""
    app = await make_app(world)
    await app.put_user("fay", "hook_fay")
    await subscribe(app, hooks.url("/k"))
    await post_as(app, "fay")
    await world.settle()
    store, clock = world.feedloom.stores.webhooks, world.feedloom.runtime.clock
    now = clock()
    [claimed] = await store.claim_due(now, now + timedelta(milliseconds=500), 10, [])
    assert await store.claim_due(now, now, 10, []) == []  # leased: nobody else sends it
    await asyncio.sleep(0.6)
    await sender(world).deliver_due()
    [got] = hooks.at("/k")
    assert got.headers["webhook-id"] == f"msg_{claimed.delivery_id}"
