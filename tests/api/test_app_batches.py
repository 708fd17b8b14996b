"""An app's batches (users, follows; NDJSON or JSON arrays, a result per row) and what
it does on its users' behalf (posts, likes, comments, follows, the feed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from tests.apps import AppUnderTest, make_app
from tests.world import World


def ndjson(rows: Sequence[object]) -> bytes:
    return b"\n".join(orjson.dumps(row) for row in rows) + b"\n"


async def batch(
    app: AppUnderTest, what: str, rows: Sequence[object], as_ndjson: bool = False
) -> dict[str, Any]:
    if as_ndjson:
        headers = {**app.auth, "Content-Type": "application/x-ndjson"}
        response = await app.client.post(
            f"/v1/apps/{what}:batch", content=ndjson(rows), headers=headers
        )
    else:
        response = await app.call("post", f"/v1/apps/{what}:batch", json=rows)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_users_batch_reports_bad_rows_while_the_good_rows_land(world: World) -> None:
    app = await make_app(world)
    await world.user("already_here")
    rows: list[object] = [
        {"external_id": "b1", "username": "batch_one", "display_name": "One"},
        {"external_id": "b2", "username": "x"},  # too short
        {"external_id": "b3", "username": "already_here"},  # taken
        {"external_id": "b4", "username": "batch_four", "unexpected": 1},
        {"external_id": "b5", "username": "batch_five"},
    ]
    body = await batch(app, "users", rows)
    assert body["rows"] == 5 and body["failed"] == 3
    results = body["results"]
    assert [r["index"] for r in results] == [0, 1, 2, 3, 4]
    assert [r.get("result") for r in results] == ["created", None, None, None, "created"]
    assert [r.get("error", {}).get("status") for r in results] == [None, 422, 409, 422, None]
    again = await batch(app, "users", rows)
    assert [r.get("result") for r in again["results"]] == [
        "unchanged", None, None, None, "unchanged"
    ]  # fmt: skip
    assert (await app.call("get", "/v1/apps/users/b5/feed")).status_code == 200
    assert (await app.call("get", "/v1/apps/users/b2/feed")).status_code == 404


async def test_ndjson_rows_and_a_broken_line_are_reported_per_row(world: World) -> None:
    app = await make_app(world)
    headers = {**app.auth, "Content-Type": "application/x-ndjson"}
    body = b'{"external_id": "n1", "username": "ndjson_one"}\n{not json\n'
    response = await app.client.post("/v1/apps/users:batch", content=body, headers=headers)
    results = response.json()["results"]
    assert results[0]["result"] == "created" and results[1]["error"]["status"] == 422


async def test_a_batch_over_the_row_limit_is_413_and_writes_nothing(world: World) -> None:
    app = await make_app(world)
    world.feedloom.settings.apps.batch_max_rows = 3
    try:
        rows = [{"external_id": f"m{i}", "username": f"many_{i}"} for i in range(4)]
        response = await app.call("post", "/v1/apps/users:batch", json=rows)
    finally:
        world.feedloom.settings.apps.batch_max_rows = 10_000
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
    assert (await app.call("get", "/v1/apps/users/m0/feed")).status_code == 404


async def test_a_follows_batch_follows_unfollows_and_reports_per_row(world: World) -> None:
    app = await make_app(world)
    people = [{"external_id": f"p{i}", "username": f"graph_{i}"} for i in range(4)]
    await batch(app, "users", people, as_ndjson=True)
    post = await app.call("post", "/v1/apps/users/p1/posts", json={"text": "from p1"})
    post_id = post.json()["post_id"]
    await world.settle()
    rows: list[object] = [
        {"follower": "p0", "followee": "p1", "op": "follow"},
        {"follower": "p0", "followee": "p2"},
        {"follower": "p0", "followee": "nobody", "op": "follow"},
        {"follower": "p0", "followee": "p0", "op": "follow"},
        {"follower": "p0", "followee": "p3", "op": "sideways"},
        {"follower": "p0", "followee": "p2", "op": "unfollow"},
        {"follower": "p3", "followee": "p2", "op": "unfollow"},
    ]
    body = await batch(app, "follows", rows, as_ndjson=True)
    assert [r.get("result") for r in body["results"]] == [
        "followed", "followed", None, None, None, "unfollowed", "unchanged"
    ]  # fmt: skip
    assert [r.get("error", {}).get("status") for r in body["results"]][2:5] == [404, 422, 422]
    again = await batch(app, "follows", rows[:2])  # p0 -> p2 was unfollowed since
    assert [r["result"] for r in again["results"]] == ["unchanged", "followed"]
    feed = (await app.call("get", "/v1/apps/users/p0/feed")).json()
    assert [item["post_id"] for item in feed["items"]] == [post_id]
    viewer = await world.user()
    follower_id = body["results"][0]["user_id"]  # a row's user is its follower
    profile = await world.client.get(f"/v1/users/{follower_id}", headers=viewer.auth)
    assert profile.json()["following"] == 2  # p1, and p2 again


async def test_a_follows_batch_refuses_rows_of_a_suspended_account(world: World) -> None:
    app = await make_app(world)
    people = [{"external_id": f"s{i}", "username": f"susp_{i}"} for i in range(3)]
    await batch(app, "users", people)
    await batch(app, "follows", [{"follower": "s0", "followee": "s2"}])
    await world.feedloom.services.account_lifecycle.suspend("susp_2")
    await world.feedloom.services.account_lifecycle.suspend("susp_1")
    rows: list[object] = [
        {"follower": "s0", "followee": "s1", "op": "follow"},  # of a suspended account
        {"follower": "s1", "followee": "s0", "op": "follow"},  # by one
        {"follower": "s1", "followee": "s0", "op": "unfollow"},
        {"follower": "s0", "followee": "s2", "op": "unfollow"},  # stands: may not come back
    ]
    body = await batch(app, "follows", rows)
    results = body["results"]
    assert [r.get("result") for r in results] == [None, None, None, "unfollowed"]
    assert [r.get("error", {}).get("status") for r in results[:3]] == [404, 404, 404]


async def test_an_app_acts_for_its_user_through_the_same_pipeline(world: World) -> None:
    app = await make_app(world)
    for ext, name in (("w1", "writer_one"), ("w2", "writer_two")):
        assert (await app.put_user(ext, name)).status_code == 201
    assert (await app.call("put", "/v1/apps/users/w2/follows/w1")).json() == {"changed": True}
    headers = {"Idempotency-Key": "post-1"}
    first = await app.call("post", "/v1/apps/users/w1/posts", json={"text": "hi"}, headers=headers)
    retry = await app.call("post", "/v1/apps/users/w1/posts", json={"text": "hi"}, headers=headers)
    assert first.status_code == 201 and retry.json() == first.json()
    post_id = first.json()["post_id"]
    await world.settle()
    feed = (await app.call("get", "/v1/apps/users/w2/feed")).json()
    assert [item["post_id"] for item in feed["items"]] == [post_id]
    liked = await app.call("put", f"/v1/apps/users/w2/likes/{post_id}")
    assert liked.json() == {"liked": True, "changed": True}
    comment = await app.call(
        "post", f"/v1/apps/users/w2/posts/{post_id}/comments", json={"text": "nice"}
    )
    assert comment.status_code == 201
    comment_id = comment.json()["id"]
    gone = await app.call("delete", f"/v1/apps/users/w2/posts/{post_id}/comments/{comment_id}")
    assert gone.status_code == 204
    assert (await app.call("delete", f"/v1/apps/users/w2/likes/{post_id}")).json()["changed"]
    not_theirs = await app.call("delete", f"/v1/apps/users/w2/posts/{post_id}")
    assert not_theirs.status_code == 403
    assert (await app.call("delete", f"/v1/apps/users/w1/posts/{post_id}")).status_code == 204
    assert (await app.call("delete", "/v1/apps/users/w2/follows/w1")).json() == {"changed": True}
    feed = (await app.call("get", "/v1/apps/users/w2/feed")).json()
    assert feed["items"] == []
    assert json.dumps(feed)
