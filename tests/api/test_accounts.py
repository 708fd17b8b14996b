"""Accounts and sessions: create, log in, bearer tokens, revocation."""

from __future__ import annotations

import httpx

from tests.world import PASSWORD, World


async def test_an_account_is_created_and_can_log_in(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/accounts", json={"username": "ada_l", "password": PASSWORD, "display_name": "Ada"}
    )
    assert created.status_code == 201
    assert created.json()["username"] == "ada_l"
    assert isinstance(created.json()["id"], str)
    session = await client.post("/v1/sessions", json={"username": "ada_l", "password": PASSWORD})
    assert session.status_code == 201
    me = await client.get("/v1/me", headers={"Authorization": f"Bearer {session.json()['token']}"})
    assert me.status_code == 200
    assert me.json() | {"id": "x"} == {
        "id": "x",
        "username": "ada_l",
        "name": "Ada",
        "avatar": None,
        "followers": 0,
        "following": 0,
        "pulled": False,
        "bio": "",
    }


async def test_a_taken_username_is_a_conflict(world: World) -> None:
    await world.user("taken_name")
    again = await world.client.post(
        "/v1/accounts", json={"username": "taken_name", "password": PASSWORD}
    )
    assert again.status_code == 409
    assert again.headers["content-type"] == "application/problem+json"
    assert "taken" in again.json()["detail"]


async def test_a_wrong_password_is_unauthorized(world: World) -> None:
    user = await world.user()
    wrong = await world.client.post(
        "/v1/sessions", json={"username": user.username, "password": "not the password"}
    )
    assert wrong.status_code == 401
    assert wrong.json()["type"].endswith("/unauthorized")


async def test_requests_without_a_valid_token_are_unauthorized(client: httpx.AsyncClient) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = await client.get("/v1/feed", headers=headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"


async def test_a_revoked_token_stops_working(world: World) -> None:
    user = await world.user()
    assert (await world.client.delete("/v1/sessions/current", headers=user.auth)).status_code == 204
    assert (await world.client.get("/v1/me", headers=user.auth)).status_code == 401


async def test_tokens_are_stored_hashed(world: World) -> None:
    user = await world.user()
    assert await world.feedloom.stores.tokens.session_for_token(user.token) is None


async def test_account_fields_are_validated(client: httpx.AsyncClient) -> None:
    bad_bodies = [
        {"username": "no spaces allowed", "password": PASSWORD},
        {"username": "ok_name", "password": "short"},
        {"username": "ok_name", "password": PASSWORD, "admin": True},
        {"password": PASSWORD},
    ]
    for body in bad_bodies:
        response = await client.post("/v1/accounts", json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"]
