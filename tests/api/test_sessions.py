"""Sessions over HTTP: list (created, last used, which is this one), revoke the others
or one, idle expiry; the password change that signs out everywhere else."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from feedloom.write.sessions import SessionPolicy
from tests.world import PASSWORD, User, World


async def sign_in_again(world: World, user: User) -> User:
    body = {"username": user.username, "password": PASSWORD}
    session = await world.client.post("/v1/sessions", json=body)
    assert session.status_code == 201
    return User(user.id, user.username, session.json()["token"])


async def status_of(world: World, user: User) -> int:
    return (await world.client.get("/v1/me", headers=user.auth)).status_code


async def test_the_list_shows_each_session_and_which_is_this_one(world: World) -> None:
    phone = await world.user()
    laptop = await sign_in_again(world, phone)
    listed = (await world.client.get("/v1/sessions", headers=laptop.auth)).json()["items"]
    assert len(listed) == 2
    assert [item["current"] for item in listed] == [True, False]  # newest first
    for item in listed:
        assert set(item) == {"id", "created_at", "last_used_at", "expires_at", "current", "app"}
        assert item["app"] is None  # signed in with a password, not granted to an app
        assert item["id"] not in (phone.token, laptop.token)


async def test_deleting_the_sessions_signs_out_everywhere_but_here(world: World) -> None:
    here = await world.user()
    there, elsewhere = await sign_in_again(world, here), await sign_in_again(world, here)
    other_user = await world.user()
    assert (await world.client.delete("/v1/sessions", headers=here.auth)).status_code == 204
    assert [await status_of(world, u) for u in (here, there, elsewhere, other_user)] == [
        200,
        401,
        401,
        200,
    ]


async def test_one_session_is_revoked_by_its_id_and_only_by_its_owner(world: World) -> None:
    here = await world.user()
    there = await sign_in_again(world, here)
    mallory = await world.user()
    listed = (await world.client.get("/v1/sessions", headers=here.auth)).json()["items"]
    [theirs] = [item["id"] for item in listed if not item["current"]]
    url = f"/v1/sessions/{theirs}"
    assert (await world.client.delete(url, headers=mallory.auth)).status_code == 404
    assert (await world.client.delete(url, headers=here.auth)).status_code == 204
    assert (await world.client.delete(url, headers=here.auth)).status_code == 404
    assert await status_of(world, there) == 401
    assert await status_of(world, here) == 200


async def test_a_session_unused_past_the_idle_expiry_is_refused(world: World) -> None:
    user = await world.user()
    auth = world.feedloom.services.auth
    auth.policy = SessionPolicy(idle_expiry=timedelta(seconds=1))
    await asyncio.sleep(1.2)
    response = await world.client.get("/v1/me", headers=user.auth)
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


async def test_a_password_change_needs_the_current_one_and_signs_out_the_others(
    world: World,
) -> None:
    here = await world.user()
    there = await sign_in_again(world, here)
    url = "/v1/me/password"
    wrong = {"current_password": "not it at all", "new_password": "a new long password"}
    refused = await world.client.put(url, json=wrong, headers=here.auth)
    assert refused.status_code == 403
    assert await status_of(world, there) == 200
    short = {"current_password": PASSWORD, "new_password": "short"}
    assert (await world.client.put(url, json=short, headers=here.auth)).status_code == 422
    body = {"current_password": PASSWORD, "new_password": "a new long password"}
    assert (await world.client.put(url, json=body, headers=here.auth)).status_code == 204
    assert (await status_of(world, here), await status_of(world, there)) == (200, 401)
    for password, status in ((PASSWORD, 401), ("a new long password", 201)):
        signed = {"username": here.username, "password": password}
        assert (await world.client.post("/v1/sessions", json=signed)).status_code == status
