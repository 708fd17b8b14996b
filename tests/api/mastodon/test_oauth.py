"""Apps and OAuth 2 on the Mastodon-compatible API: PKCE through the sign-in form, the
code used once, scopes enforced, tokens that are sessions, errors as `{"error"}`."""

from __future__ import annotations

import httpx

from tests.api.mastodon.oauth import REDIRECT, authorize, bearer, pkce, register, token_for
from tests.world import World


async def test_a_code_with_pkce_becomes_a_token_that_reads_the_account(world: World) -> None:
    alice = await world.user()
    token = await token_for(world.client, alice)
    me = await world.client.get("/api/v1/accounts/verify_credentials", headers=bearer(token))
    assert me.status_code == 200, me.text
    assert me.json()["id"] == alice.id
    assert me.json()["acct"] == alice.username


async def test_a_wrong_verifier_or_a_reused_code_gets_no_token(world: World) -> None:
    alice = await world.user()
    app = await register(world.client)
    verifier, challenge = pkce()
    code = await authorize(world.client, app, alice, "read", challenge)
    exchange = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
    }
    wrong = await world.client.post("/oauth/token", data={**exchange, "code_verifier": "x" * 50})
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    again = await world.client.post("/oauth/token", data={**exchange, "code_verifier": verifier})
    assert again.status_code == 400  # the code was used up by the first try


async def test_a_public_client_must_send_a_verifier(world: World) -> None:
    alice = await world.user()
    app = await register(world.client)
    _, challenge = pkce()
    code = await authorize(world.client, app, alice, "read", challenge)
    answer = await world.client.post(
        "/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "client_id": app.client_id,
            "redirect_uri": REDIRECT,
        },
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_request"


async def test_a_redirect_uri_not_registered_is_refused_on_the_page(world: World) -> None:
    app = await register(world.client)
    page = await world.client.get(
        "/oauth/authorize",
        params={
            "client_id": app.client_id,
            "redirect_uri": "https://evil.example/",
            "response_type": "code",
        },
    )
    assert page.status_code == 400
    assert "evil.example" not in page.headers.get("location", "")


async def test_a_wrong_password_shows_the_form_again_and_issues_no_code(world: World) -> None:
    alice = await world.user()
    app = await register(world.client)
    _, challenge = pkce()
    form = {
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "response_type": "code",
        "scope": "read",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "username": alice.username,
        "password": "wrong password",
    }
    answer = await world.client.post("/oauth/authorize", data=form)
    assert answer.status_code == 401
    assert "unknown username or wrong password" in answer.text


async def test_scopes_are_enforced_per_endpoint(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    token = await token_for(world.client, alice, scope="read")
    read = await world.client.get(f"/api/v1/accounts/{bob.id}", headers=bearer(token))
    assert read.status_code == 200
    follow = await world.client.post(f"/api/v1/accounts/{bob.id}/follow", headers=bearer(token))
    assert follow.status_code == 403
    assert follow.json() == {"error": "This action is outside the authorized scopes"}


async def test_a_token_is_a_session_listed_under_its_app_and_not_a_v1_key(world: World) -> None:
    alice = await world.user()
    token = await token_for(world.client, alice)
    sessions = await world.client.get("/v1/sessions", headers=alice.auth)
    apps = [item["app"] for item in sessions.json()["items"]]
    assert sorted(apps, key=str) == sorted([None, "Test app"], key=str)
    refused = await world.client.get("/v1/me", headers=bearer(token))
    assert refused.status_code == 401
    assert refused.headers["content-type"] == "application/problem+json"


async def test_a_revoked_token_is_refused(world: World) -> None:
    alice = await world.user()
    app = await register(world.client)
    verifier, challenge = pkce()
    code = await authorize(world.client, app, alice, "read", challenge)
    credentials = {"client_id": app.client_id, "client_secret": app.client_secret}
    issued = await world.client.post(
        "/oauth/token",
        data={
            **credentials,
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "code_verifier": verifier,
        },
    )
    token = issued.json()["access_token"]
    revoked = await world.client.post("/oauth/revoke", data={**credentials, "token": token})
    assert revoked.status_code == 200
    after = await world.client.get("/api/v1/accounts/verify_credentials", headers=bearer(token))
    assert after.status_code == 401
    assert "error" in after.json()


async def test_an_app_token_verifies_the_app(world: World) -> None:
    app = await register(world.client, scopes="read write")
    issued = await world.client.post(
        "/oauth/token",
        data={
            "grant_type": "client_credentials",
            "client_id": app.client_id,
            "client_secret": app.client_secret,
            "scope": "read",
        },
    )
    assert issued.status_code == 200, issued.text
    token = issued.json()["access_token"]
    verified = await world.client.get("/api/v1/apps/verify_credentials", headers=bearer(token))
    assert verified.status_code == 200
    assert verified.json()["name"] == "Test app"
    assert verified.json()["scopes"] == ["read"]


async def test_discovery_and_instance_state_our_limits(client: httpx.AsyncClient) -> None:
    meta = (await client.get("/.well-known/oauth-authorization-server")).json()
    assert meta["code_challenge_methods_supported"] == ["S256"]
    v2 = (await client.get("/api/v2/instance")).json()
    assert v2["configuration"]["statuses"]["max_characters"] == 500
    assert v2["configuration"]["statuses"]["max_media_attachments"] == 4
    assert v2["configuration"]["urls"]["streaming"].startswith("ws")
    v1 = (await client.get("/api/v1/instance")).json()
    assert v1["urls"]["streaming_api"].startswith("ws")
    assert (await client.get("/api/v1/instance/peers")).json() == []
    links = (await client.get("/.well-known/nodeinfo")).json()["links"]
    info = (await client.get(links[0]["href"].removeprefix("http://test"))).json()
    assert info["software"]["name"] == "feedloom" and info["protocols"] == []


async def test_errors_on_this_surface_are_mastodon_shaped(client: httpx.AsyncClient) -> None:
    missing = await client.get("/api/v1/accounts/verify_credentials")
    assert missing.status_code == 401
    assert missing.headers["content-type"] == "application/json"
    assert set(missing.json()) == {"error"}
    nowhere = await client.get("/api/v1/nothing-here")
    assert nowhere.status_code == 404 and set(nowhere.json()) == {"error"}
