"""The read marker, unread counts, per-type switches and live notification events, on
every backend (the live events through Redis pub/sub on PostgreSQL + Redis)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi import FastAPI

from feedloom.domain.ids import MAX_ID, lowest_id_at
from tests.api.sse import open_stream
from tests.api.test_notifications import items, like
from tests.world import PASSWORD, User, World

LIVE_WITHIN_S = 2.0


async def unread(world: World, user: User) -> dict[str, Any]:
    response = await world.client.get("/v1/notifications/unread_count", headers=user.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def mark(world: World, user: User, up_to: Any) -> httpx.Response:
    return await world.client.post(
        "/v1/notifications/read", json={"up_to": up_to}, headers=user.auth
    )


async def second_session(world: World, user: User) -> User:
    session = await world.client.post(
        "/v1/sessions", json={"username": user.username, "password": PASSWORD}
    )
    assert session.status_code == 201, session.text
    return User(user.id, user.username, session.json()["token"])


async def test_the_marker_is_the_same_on_every_device_idempotent_and_never_backwards(
    world: World,
) -> None:
    author, alice, bob = await world.user(), await world.user(), await world.user()
    phone = await second_session(world, author)
    first, second = await world.post(author), await world.post(author)
    await like(world, alice, first)
    older = (await items(world, author))[0]["id"]
    await like(world, bob, second)
    newer = (await items(world, author))[0]["id"]
    assert (await unread(world, phone))["unread_count"] == 2

    marked = await mark(world, author, newer)
    assert marked.status_code == 200, marked.text
    assert marked.json() == {"unread_count": 0, "up_to": newer}
    assert await unread(world, phone) == {"unread_count": 0, "up_to": newer}
    assert (await mark(world, phone, newer)).json() == {"unread_count": 0, "up_to": newer}
    assert (await mark(world, phone, older)).json()["up_to"] == newer  # never backwards

    await like(world, alice, second)  # the group is updated: newer, unread again
    await world.settle()
    assert (await unread(world, phone))["unread_count"] == 1


async def test_a_marker_above_2_63_or_from_the_future_or_not_an_id_is_422_and_changes_nothing(
    world: World,
) -> None:
    from datetime import UTC, datetime, timedelta

    user = await world.user()
    future = lowest_id_at(datetime.now(UTC) + timedelta(hours=1))
    for bad in (str(MAX_ID + 1), str(future), "abc", 5, "", "-1"):
        response = await mark(world, user, bad)
        assert response.status_code == 422, (bad, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
    assert (await unread(world, user))["up_to"] == "0"


async def test_a_type_switched_off_is_neither_shown_nor_counted(world: World) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await like(world, fan, post)
    await world.follow(fan, author)
    settings = await world.client.get("/v1/me/settings", headers=author.auth)
    assert settings.json()["notifications"] == {
        kind: True
        for kind in ("like", "reply", "mention", "repost", "quote", "follow", "moderation")
    }
    changed = await world.client.put(
        "/v1/me/settings", json={"notifications": {"like": False}}, headers=author.auth
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["notifications"]["like"] is False
    assert changed.json()["feed_order"] is None  # left out: unchanged
    assert [item["type"] for item in await items(world, author)] == ["follow"]
    assert (await unread(world, author))["unread_count"] == 1
    await world.client.put(
        "/v1/me/settings", json={"notifications": {"like": True}}, headers=author.auth
    )
    assert len(await items(world, author)) == 2
    bad = await world.client.put(
        "/v1/me/settings", json={"notifications": {"poke": False}}, headers=author.auth
    )
    assert bad.status_code == 422


async def test_an_open_home_stream_gets_the_notification_and_the_marker_live(
    world: World, app: FastAPI
) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await world.settle()
    async with open_stream(app, "/v1/streams/home", {}, author.auth) as stream:
        await stream.ready(LIVE_WITHIN_S)
        await like(world, fan, post)
        await world.settle()
        event = await stream.next_event(LIVE_WITHIN_S, "notification")
        data = json.loads(event["data"])
        assert "id" not in event  # Last-Event-ID stays a post ID
        assert data["unread_count"] == 1
        assert data["notification"]["type"] == "like"
        assert [a["id"] for a in data["notification"]["accounts"]] == [fan.id]
        assert data["notification"]["post"]["post_id"] == post
        assert (await mark(world, author, data["notification"]["id"])).status_code == 200
        event = await stream.next_event(LIVE_WITHIN_S, "notification")
        assert json.loads(event["data"]) == {"unread_count": 0, "notification": None}
