"""Every webhook event type, from the outbox (domain/webhook_events.py): each write an
app's users make is delivered once per webhook, signed and verified with the reference
library; the same event handed out twice is one delivery; and the webhook step costs
no SQL while no webhook wants an event."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from standardwebhooks import Webhook as Verifier

from feedloom.domain.model import Event, PostPublished, Role
from feedloom.domain.notifications import Notified
from feedloom.domain.webhook_events import EVENT_TYPES
from feedloom.settings import ModerationSettings, Settings, WebhookSettings
from feedloom.write.webhooks import WebhookEvents
from tests.api.test_warm_reads import statements
from tests.api.test_webhooks import post_as, sender, subscribe
from tests.apps import AppUnderTest, make_app
from tests.conftest import shrunk_settings
from tests.receiver import Receiver, receiver
from tests.world import World


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shrunk = shrunk_settings(tmp_path)
    hooks = WebhookSettings(allow_loopback=True, timeout_s=10.0)  # a busy machine is slow
    moderation = ModerationSettings(blocked_words=["scamword"])
    return shrunk.model_copy(update={"webhooks": hooks, "moderation": moderation})


@pytest.fixture
def hooks() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def as_user(app: AppUnderTest, external_id: str) -> dict[str, str]:
    now = int(time.time())
    claims = {"iss": str(app.app_id), "sub": external_id, "aud": "feedloom", "exp": now + 600}
    return {"Authorization": "Bearer " + jwt.encode(claims, app.token_secret, "HS256")}


def step(world: World) -> WebhookEvents:
    return world.feedloom.services.apps.webhook_events


async def ok(response: Any) -> Any:
    assert response.status_code < 300, response.text
    return response.json() if response.content else None


async def test_every_event_type_is_delivered_signed_once_per_event(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    await app.put_user("ada", "ev_ada")
    await app.put_user("bob", "ev_bob")
    hook = await subscribe(app, hooks.url(), *EVENT_TYPES)
    mod = await world.user()
    await world.feedloom.services.account_lifecycle.set_role(mod.username, Role.MODERATOR)
    ada, bob = as_user(app, "ada"), as_user(app, "bob")

    await ok(await app.call("put", "/v1/apps/users/bob/follows/ada"))
    post = await post_as(app, "ada", "first")
    await world.settle()  # published before anyone acts on it
    await ok(await app.call("put", f"/v1/apps/users/bob/likes/{post}"))
    await ok(await app.call("put", f"/v1/apps/users/ada/likes/{post}"))  # notifies nobody
    await ok(await app.call("delete", f"/v1/apps/users/bob/likes/{post}"))
    reply = await ok(
        await app.call("post", f"/v1/apps/users/bob/posts/{post}/comments", json={"text": "hi"})
    )
    await ok(await world.client.put(f"/v1/posts/{post}/repost", headers=bob))
    await ok(await world.client.patch(f"/v1/posts/{post}", json={"text": "edited"}, headers=ada))
    held = [await post_as(app, "ada", f"scamword {n}") for n in (1, 2)]
    await world.settle()
    for verb, held_id in zip(("release", "reject"), held, strict=True):
        path = f"/v1/moderation/posts/{held_id}/{verb}"
        await ok(await world.client.post(path, headers=mod.auth))
    await ok(await app.call("delete", "/v1/apps/users/bob/follows/ada"))
    await ok(await app.call("delete", f"/v1/apps/users/ada/posts/{post}"))
    await world.settle()
    await ok(await app.call("delete", "/v1/apps/users/bob"))
    await world.settle()
    await sender(world).deliver_due()

    got = [Verifier(hook["secret"]).verify(r.body, r.headers) for r in hooks.at("/hook")]
    ids = [r.headers["webhook-id"] for r in hooks.at("/hook")]
    assert len(set(ids)) == len(ids)
    assert {g["type"] for g in got} == set(EVENT_TYPES), [g["type"] for g in got]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for payload in got:
        by_type.setdefault(payload["type"], []).append(payload["data"])
    # Both sides of a like or a follow are the app's users: one delivery, not two.
    bobs, own = sorted(by_type["like.created"], key=lambda d: d["user"] != "bob")
    assert (own["user"], own["author"]) == ("ada", "ada")
    like = bobs
    assert (like["post_id"], like["user"], like["author"]) == (post, "bob", "ada")
    assert like["user_id"] and like["author_id"]
    [unlike] = by_type["like.deleted"]
    assert unlike["post_id"] == post and unlike["user"] == "bob"
    [follow] = by_type["follow.created"]
    assert (follow["follower"], follow["followee"]) == ("bob", "ada")
    assert [f["follower"] for f in by_type["follow.deleted"]] == ["bob"]
    [replied] = by_type["reply.created"]
    assert replied["post_id"] == reply["id"] and replied["in_reply_to"] == post
    assert by_type["repost.created"][0]["repost_of"] == post
    assert by_type["post.edited"] == [
        {"post_id": post, "text": "edited", "author_id": like["author_id"], "author": "ada"}
    ]
    assert sorted(d["post_id"] for d in by_type["moderation.held"]) == sorted(held)
    assert [d["post_id"] for d in by_type["moderation.released"]] == held[:1]
    assert [d["post_id"] for d in by_type["moderation.rejected"]] == held[1:]
    assert post in [d["post_id"] for d in by_type["post.deleted"]]
    [erased] = by_type["user.deleted"]
    assert erased == {"user_id": like["user_id"], "user": "bob"}
    notified = {(n["type"], n["recipient"], n["actor"]) for n in by_type["notification.created"]}
    for kind in ("follow", "like", "reply", "repost"):
        assert (kind, "ada", "bob") in notified
    assert ("moderation", "ada", None) in notified
    assert ("like", "ada", "ada") not in notified

    # Everything handled again (a worker died before acknowledging): nothing new is sent.
    before = len(hooks.received)
    await world.settle()
    await sender(world).deliver_due()
    assert len(hooks.received) == before


async def test_an_event_handed_out_twice_is_one_delivery(world: World, hooks: Receiver) -> None:
    app = await make_app(world)
    ada = (await ok(await app.put_user("ada", "tw_ada")))["user_id"]
    bob = (await ok(await app.put_user("bob", "tw_bob")))["user_id"]
    await subscribe(app, hooks.url(), "like.created", "notification.created")
    store = world.feedloom.stores.webhooks
    like = Notified(int(ada), int(bob), 7, "like:7:1", seq=41)
    await step(world)([like])
    made = await store.deliveries("pending", 10)
    assert sorted(d.type for d in made) == ["like.created", "notification.created"]
    await step(world)([like])
    assert await store.deliveries("pending", 10) == made
    await step(world)([Notified(int(ada), int(bob), 7, "like:7:1", seq=42)])  # a new like
    assert len(await store.deliveries("pending", 10)) == 4


async def test_the_webhook_step_costs_no_sql_while_no_webhook_wants_the_events(
    world: World, hooks: Receiver
) -> None:
    app = await make_app(world)
    await app.put_user("cy", "sql_cy")
    events: list[Event] = [PostPublished(1, 2, seq=1), Notified(3, 2, 1, "like:1:1", seq=2)]
    await step(world)(events)  # the subscribed types are read once, then cached
    with statements() as seen:
        await step(world)(events)
    assert seen == []
    await subscribe(app, hooks.url(), "user.deleted")  # no type these events make
    with statements() as seen:
        await step(world)(events)
    assert len(seen) == 1  # the set again: the new webhook invalidated it
    with statements() as seen:
        await step(world)(events)
    assert seen == []
    hook = await subscribe(app, hooks.url(), "post.created")
    await post_as(app, "cy", "counted")
    await world.settle()
    await sender(world).deliver_due()
    assert [json.loads(r.body)["type"] for r in hooks.at("/hook")] == ["post.created"]
    await app.call("delete", f"/v1/apps/webhooks/{hook['id']}")
    await step(world)(events)
    with statements() as seen:
        await step(world)(events)
    assert seen == []
