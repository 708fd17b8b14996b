"""Notifications on the Mastodon-compatible API, on every backend: our types as
Mastodon's, one v1 notification per group, paging with `Link`, type filters, one
notification, dismiss and clear (durable: the same use case /v1 reads), the grouped
v2 shape, the unread count, the scopes, markers, and the `notification` event of the
user stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from fastapi import FastAPI

from tests.api.mastodon.oauth import bearer, token_for
from tests.api.mastodon.test_statuses import _links, _path
from tests.api.sse import open_stream
from tests.api.test_notifications import like, relation
from tests.world import User, World


async def _get(world: World, auth: dict[str, str], path: str, **params: Any) -> httpx.Response:
    await world.settle()
    response = await world.client.get(path, params=params or None, headers=auth)
    assert response.status_code == 200, response.text
    return response


async def _ids(world: World, auth: dict[str, str], **params: Any) -> list[str]:
    return [n["id"] for n in (await _get(world, auth, "/api/v1/notifications", **params)).json()]


async def _liked_posts(world: World, author: User, count: int) -> list[str]:
    """`count` posts, each liked by another account: `count` groups, oldest first."""
    posts = [await world.post(author, f"post {n}") for n in range(count)]
    for post in posts:
        await like(world, await world.user(), post)
        await world.settle()
    return posts


async def test_each_type_is_mastodons_with_the_groups_most_recent_account(world: World) -> None:
    author, fan, other = await world.user(), await world.user(), await world.user()
    auth = bearer(await token_for(world.client, author))
    post = await world.post(author, "worth it")
    await like(world, other, post)
    await like(world, fan, post)
    await world.settle()
    await relation(world, fan, author, "follow")
    await world.settle()
    shared = await world.client.put(f"/v1/posts/{post}/repost", headers=fan.auth)
    assert shared.status_code == 200
    await world.settle()
    await world.post(fan, "a reply", in_reply_to=post)
    await world.settle()
    await world.post(fan, f"hi @{author.username}")
    found = (await _get(world, auth, "/api/v1/notifications")).json()
    assert [n["type"] for n in found] == ["mention", "mention", "reblog", "follow", "favourite"]
    assert all(n["account"]["id"] == fan.id for n in found)
    favourite = found[-1]
    assert favourite["status"]["id"] == post and favourite["group_key"].startswith("like:")
    assert "status" not in found[3]  # a follow is about no status
    assert found[1]["status"]["in_reply_to_id"] == post
    one = await _get(world, auth, f"/api/v1/notifications/{favourite['id']}")
    assert one.json() == favourite
    missing = await world.client.get("/api/v1/notifications/123", headers=auth)
    assert missing.status_code == 404 and set(missing.json()) == {"error"}

    only = await _ids(world, auth, **{"types[]": ["favourite", "follow"]})
    assert only == [found[3]["id"], favourite["id"]]
    without = await _ids(world, auth, **{"exclude_types[]": ["mention"]})
    assert without == [n["id"] for n in found[2:]]
    assert await _ids(world, auth, **{"types[]": ["poll"]}) == []
    count = await _get(world, auth, "/api/v1/notifications/unread_count")
    assert count.json() == {"count": 5}
    grouped_count = await _get(world, auth, "/api/v2/notifications/unread_count")
    assert grouped_count.json() == {"count": 5}


async def test_notifications_page_like_the_timelines(world: World) -> None:
    author = await world.user()
    auth = bearer(await token_for(world.client, author))
    await _liked_posts(world, author, 5)
    ids = await _ids(world, auth)
    assert len(ids) == 5 and ids == sorted(ids, key=int, reverse=True)
    first = await _get(world, auth, "/api/v1/notifications", limit=2)
    assert [n["id"] for n in first.json()] == ids[:2]
    second = await _get(world, auth, _path(_links(first)["next"]))
    assert [n["id"] for n in second.json()] == ids[2:4]
    prev = await _get(world, auth, _path(_links(second)["prev"]))
    assert [n["id"] for n in prev.json()] == ids[:2]
    assert await _ids(world, auth, since_id=ids[3], limit=2) == ids[:2]  # the newest above
    assert await _ids(world, auth, min_id=ids[3], limit=2) == ids[1:3]  # just above
    assert await _ids(world, auth, max_id=ids[0], since_id=ids[3]) == ids[1:3]


async def test_dismiss_and_clear_are_durable_and_seen_by_v1(world: World) -> None:
    author = await world.user()
    auth = bearer(await token_for(world.client, author))
    await _liked_posts(world, author, 3)
    ids = await _ids(world, auth)
    dismissed = await world.client.post(f"/api/v1/notifications/{ids[1]}/dismiss", headers=auth)
    assert dismissed.status_code == 200 and dismissed.json() == {}
    assert await _ids(world, auth) == [ids[0], ids[2]]
    again = await world.client.post(f"/api/v1/notifications/{ids[1]}/dismiss", headers=auth)
    assert again.status_code == 404
    ours = await world.client.get("/v1/notifications", headers=author.auth)
    assert [item["id"] for item in ours.json()["items"]] == [ids[0], ids[2]]
    # The cache is rebuilt from the store: the dismissal is in the store, not the cache.
    await world.feedloom.services.notifications._records.changed([int(author.id)])
    assert await _ids(world, auth) == [ids[0], ids[2]]

    cleared = await world.client.post("/api/v1/notifications/clear", headers=auth)
    assert cleared.status_code == 200 and cleared.json() == {}
    assert await _ids(world, auth) == []
    await world.feedloom.services.notifications._records.changed([int(author.id)])
    assert await _ids(world, auth) == []
    # What comes after a clear is news again.
    [post] = await _liked_posts(world, author, 1)
    [fresh] = (await _get(world, auth, "/api/v1/notifications")).json()
    assert fresh["status"]["id"] == post


async def test_grouped_notifications_have_mastodon_4_3s_shape(world: World) -> None:
    author, fans = await world.user(), [await world.user() for _ in range(3)]
    auth = bearer(await token_for(world.client, author))
    post = await world.post(author, "popular")
    for fan in fans:
        await like(world, fan, post)
        await relation(world, fan, author, "follow")
    await world.settle()
    body = (await _get(world, auth, "/api/v2/notifications")).json()
    assert set(body) == {"accounts", "statuses", "notification_groups"}
    follows, likes = body["notification_groups"]
    assert follows["type"] == "follow" and likes["type"] == "favourite"
    assert likes["notifications_count"] == 3 and likes["status_id"] == post
    assert likes["sample_account_ids"] == [fan.id for fan in reversed(fans)]
    assert likes["page_min_id"] == likes["page_max_id"] == likes["most_recent_notification_id"]
    assert {a["id"] for a in body["accounts"]} == {fan.id for fan in fans}
    assert [s["id"] for s in body["statuses"]] == [post]
    only = (await _get(world, auth, "/api/v2/notifications", **{"types[]": "follow"})).json()
    assert [g["group_key"] for g in only["notification_groups"]] == [follows["group_key"]]


async def test_notifications_need_their_scopes(world: World) -> None:
    author = await world.user()
    await _liked_posts(world, author, 1)
    reader = bearer(await token_for(world.client, author, "read:notifications"))
    [found] = await _ids(world, reader)
    refused = await world.client.post(f"/api/v1/notifications/{found}/dismiss", headers=reader)
    assert refused.status_code == 403 and set(refused.json()) == {"error"}
    statuses_only = bearer(await token_for(world.client, author, "read:statuses write"))
    paths = ("/api/v1/notifications", "/api/v2/notifications", f"/api/v1/notifications/{found}")
    for path in paths:
        response = await world.client.get(path, headers=statuses_only)
        assert response.status_code == 403
    cleared = await world.client.post("/api/v1/notifications/clear", headers=statuses_only)
    assert cleared.status_code == 200


async def test_markers_are_durable_and_the_notifications_one_is_our_read_marker(
    world: World,
) -> None:
    author = await world.user()
    auth = bearer(await token_for(world.client, author))
    posts = await _liked_posts(world, author, 2)
    ids = await _ids(world, auth)
    both = {"timeline[]": ["home", "notifications"]}
    assert (await _get(world, auth, "/api/v1/markers", **both)).json() == {}
    set_home = await world.client.post(
        "/api/v1/markers", data={"home[last_read_id]": posts[0]}, headers=auth
    )
    assert set_home.status_code == 200, set_home.text
    assert set(set_home.json()) == {"home"}
    assert set_home.json()["home"]["last_read_id"] == posts[0]
    assert set_home.json()["home"]["version"] == 1
    set_both = await world.client.post(
        "/api/v1/markers",
        json={"home": {"last_read_id": posts[1]}, "notifications": {"last_read_id": ids[1]}},
        headers=auth,
    )
    assert set_both.status_code == 200, set_both.text
    assert set_both.json()["home"]["version"] == 2
    assert set_both.json()["notifications"]["last_read_id"] == ids[1]
    # The same read marker as POST /v1/notifications/read: the unread count follows it.
    assert (await world.client.get("/v1/notifications/unread_count", headers=author.auth)).json()[
        "up_to"
    ] == ids[1]
    count = await _get(world, auth, "/api/v1/notifications/unread_count")
    assert count.json() == {"count": 1}
    # It never moves backwards (an older ID changes nothing).
    older = await world.client.post(
        "/api/v1/markers", data={"notifications[last_read_id]": "1"}, headers=auth
    )
    assert older.json()["notifications"] == set_both.json()["notifications"]
    await world.feedloom.services.notifications._records.changed([int(author.id)])
    found = (await _get(world, auth, "/api/v1/markers", **both)).json()
    assert found["home"]["last_read_id"] == posts[1]
    assert found["notifications"]["last_read_id"] == ids[1]
    only = (await _get(world, auth, "/api/v1/markers", **{"timeline[]": "home"})).json()
    assert set(only) == {"home"}
    bad = await world.client.post("/api/v1/markers", data={"home[last_read_id]": "x"}, headers=auth)
    assert bad.status_code == 422 and set(bad.json()) == {"error"}
    reader = bearer(await token_for(world.client, author, "read"))
    refused = await world.client.post(
        "/api/v1/markers", data={"home[last_read_id]": posts[0]}, headers=reader
    )
    assert refused.status_code == 403


async def test_the_user_stream_carries_notifications_to_a_token_that_may_read_them(
    world: World, app: FastAPI
) -> None:
    author, fan = await world.user(), await world.user()
    full = bearer(await token_for(world.client, author))
    narrow = bearer(await token_for(world.client, author, "read:statuses"))
    post = await world.post(author, "notify me")
    await world.settle()
    path = "/api/v1/streaming/user"
    async with (
        open_stream(app, path, {}, full, b":)") as stream,
        open_stream(app, path, {}, narrow, b":)") as statuses_only,
    ):
        await asyncio.sleep(0.5)  # both listen before the like is folded
        await like(world, fan, post)
        await world.settle()
        event = await stream.next_event(5.0, "notification")
        notification = json.loads(event["data"])
        assert notification["type"] == "favourite"
        assert notification["account"]["id"] == fan.id
        assert notification["status"]["id"] == post
        later = await world.post(author, "after the like")
        await world.settle()
        update = await statuses_only.next_event(5.0, "update")
        assert json.loads(update["data"])["id"] == later
        # The notice came first: a stream that could show it would have by now.
        assert [e["event"] for e in statuses_only.events] == ["update"]


async def test_the_user_stream_tells_a_follower_of_an_edit_and_a_delete(
    world: World, app: FastAPI
) -> None:
    reader, author = await world.user(), await world.user()
    reader_auth = bearer(await token_for(world.client, reader))
    author_auth = bearer(await token_for(world.client, author))
    await relation(world, reader, author, "follow")
    post = await world.post(author, "first words")
    await world.settle()
    async with open_stream(app, "/api/v1/streaming/user", {}, reader_auth, b":)") as stream:
        await asyncio.sleep(0.5)  # listening before the edit is handled
        edited = await world.client.put(
            f"/api/v1/statuses/{post}", data={"status": "better words"}, headers=author_auth
        )
        assert edited.status_code == 200, edited.text
        await world.settle()
        update = json.loads((await stream.next_event(5.0, "status.update"))["data"])
        assert update["id"] == post and update["content"] == "<p>better words</p>"
        assert update["edited_at"] is not None
        deleted = await world.client.delete(f"/api/v1/statuses/{post}", headers=author_auth)
        assert deleted.status_code == 200
        await world.settle()
        assert (await stream.next_event(5.0, "delete"))["data"] == post
