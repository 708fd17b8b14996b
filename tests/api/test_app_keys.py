"""API keys: hashed, prefixed, scoped, rotated, revoked, audited, rate-limited per app;
the app's users by external ID (upsert, erase)."""

from __future__ import annotations

import hashlib

from feedloom.domain.apps import Scope
from feedloom.ports import RateRule
from tests.apps import make_app
from tests.world import PASSWORD, World


async def test_a_key_is_prefixed_and_stored_only_as_its_hash(world: World) -> None:
    app = await make_app(world)
    assert app.key.startswith("fl_sk_") and len(app.key) > 40
    digest = hashlib.sha256(app.key.encode()).hexdigest()
    found = await world.feedloom.stores.apps.app_by_key(digest)
    assert found is not None and found.app_id == app.app_id
    assert app.key not in repr(found)


async def test_scopes_are_enforced_per_endpoint(world: World) -> None:
    users_only = await make_app(world, "users:write")
    assert (await users_only.put_user("u1", "scoped_one")).status_code == 201
    refused = await users_only.call("post", "/v1/apps/users/u1/posts", json={"text": "hi"})
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    assert "posts:write" in refused.json()["detail"]
    feed = await users_only.call("get", "/v1/apps/users/u1/feed")
    assert feed.status_code == 403
    admin = await make_app(world, "admin")
    assert (await admin.put_user("u1", "scoped_two")).status_code == 201
    assert (await admin.call("get", "/v1/apps/users/u1/feed")).status_code == 200


async def test_a_rotated_key_is_refused_and_the_new_one_works(world: World) -> None:
    app = await make_app(world)
    assert (await app.put_user("r1", "rotating")).status_code == 201
    old = app.key
    app.key = await world.feedloom.services.apps.admin.rotate(app.app_id)
    assert app.key != old and app.key.startswith("fl_sk_")
    assert (await app.put_user("r1", "rotating")).status_code == 200
    app.key = old
    refused = await app.put_user("r1", "rotating")
    assert refused.status_code == 401
    assert refused.headers["content-type"] == "application/problem+json"


async def test_a_revoked_app_is_refused_at_once(world: World) -> None:
    app = await make_app(world)
    assert (await app.put_user("v1", "revoked_soon")).status_code == 201
    await world.feedloom.services.apps.admin.revoke(app.app_id)
    assert (await app.put_user("v1", "revoked_soon")).status_code == 401


async def test_unknown_keys_and_api_keys_on_user_routes_are_401(world: World) -> None:
    app = await make_app(world)
    bogus = {"Authorization": "Bearer fl_sk_not-a-key"}
    assert (await world.client.put("/v1/apps/users/x", json={}, headers=bogus)).status_code == 401
    on_user_route = await world.client.get("/v1/feed", headers=app.auth)
    assert on_user_route.status_code == 401
    assert "/v1/apps" in on_user_route.json()["detail"]


async def test_every_key_authenticated_request_is_audited(world: World) -> None:
    app = await make_app(world)
    await app.put_user("a1", "audited")
    await app.call("get", "/v1/apps/users/a1/feed")
    log = await world.feedloom.stores.apps.audit_log(app.app_id, 10)
    assert [action for action, _ in log] == [
        "GET /v1/apps/users/{external_id}/feed",
        "PUT /v1/apps/users/{external_id}",
    ]


async def test_each_app_has_its_own_rate_limit(world: World) -> None:
    throttle = world.feedloom.services.throttle
    throttle.rules["apps"] = RateRule("apps", 2, 60)
    busy, other = await make_app(world), await make_app(world)
    assert [(await busy.put_user("b1", "busy_one")).status_code for _ in range(2)] == [201, 200]
    limited = await busy.put_user("b1", "busy_one")
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    assert (await other.put_user("o1", "other_one")).status_code == 201


async def test_an_upsert_creates_then_updates_and_the_user_has_no_password(world: World) -> None:
    app = await make_app(world)
    created = await app.put_user("ext-1", "ada", display_name="Ada")
    assert created.status_code == 201 and created.json()["result"] == "created"
    user_id = created.json()["user_id"]
    again = await app.put_user("ext-1", "ada", display_name="Ada")
    assert again.status_code == 200 and again.json() == {**created.json(), "result": "unchanged"}
    changed = await app.put_user("ext-1", "ada_l", display_name="Ada L.")
    assert changed.json() == {"external_id": "ext-1", "user_id": user_id, "result": "updated"}
    viewer = await world.user()
    profile = (await world.client.get(f"/v1/users/{user_id}", headers=viewer.auth)).json()
    assert (profile["username"], profile["name"]) == ("ada_l", "Ada L.")
    sign_in = {"username": "ada_l", "password": PASSWORD}
    assert (await world.client.post("/v1/sessions", json=sign_in)).status_code == 401


async def test_external_ids_are_per_app_and_a_taken_username_is_409(world: World) -> None:
    one, two = await make_app(world), await make_app(world)
    first = await one.put_user("same", "per_app_one")
    second = await two.put_user("same", "per_app_two")
    assert first.json()["user_id"] != second.json()["user_id"]
    taken = await two.put_user("other", "per_app_one")
    assert taken.status_code == 409
    bad = await one.put_user("has space", "fine_name")
    assert bad.status_code in (404, 422)


async def test_deleting_a_user_by_external_id_erases_it(world: World) -> None:
    app = await make_app(world)
    user_id = (await app.put_user("gone", "erased_soon")).json()["user_id"]
    post = await app.call("post", "/v1/apps/users/gone/posts", json={"text": "bye"})
    assert post.status_code == 201
    assert (await app.call("delete", "/v1/apps/users/gone")).status_code == 204
    viewer = await world.user()
    assert (await world.client.get(f"/v1/users/{user_id}", headers=viewer.auth)).status_code == 404
    url = f"/v1/posts/{post.json()['post_id']}"
    assert (await world.client.get(url, headers=viewer.auth)).status_code == 404
    assert (await app.call("delete", "/v1/apps/users/gone")).status_code == 404
    assert (await app.call("get", "/v1/apps/users/gone/feed")).status_code == 404
    assert Scope.USERS_WRITE.value == "users:write"
