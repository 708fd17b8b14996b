"""Signing in to the Mastodon-compatible API as an app would: register, authorize with
PKCE through the sign-in form (submitted like a browser), exchange the code."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import httpx

from tests.world import PASSWORD, User

REDIRECT = "https://app.example/callback"


@dataclass
class App:
    client_id: str
    client_secret: str


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


async def register(client: httpx.AsyncClient, scopes: str = "read write follow") -> App:
    response = await client.post(
        "/api/v1/apps",
        data={"client_name": "Test app", "redirect_uris": REDIRECT, "scopes": scopes},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    return App(body["client_id"], body["client_secret"])


async def authorize(
    client: httpx.AsyncClient, app: App, user: User, scope: str, challenge: str
) -> str:
    """The code, from the redirect after the form is submitted."""
    query = {
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "response_type": "code",
        "scope": scope,
        "state": "xyz",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    page = await client.get("/oauth/authorize", params=query)
    assert page.status_code == 200, page.text
    assert 'name="code_challenge"' in page.text
    form = {**query, "username": user.username, "password": PASSWORD, "decision": "approve"}
    answer = await client.post("/oauth/authorize", data=form)
    assert answer.status_code == 302, answer.text
    location = urlsplit(answer.headers["location"])
    params = parse_qs(location.query)
    assert params["state"] == ["xyz"]
    return params["code"][0]


async def token_for(client: httpx.AsyncClient, user: User, scope: str = "read write follow") -> str:
    app = await register(client)
    verifier, challenge = pkce()
    code = await authorize(client, app, user, scope, challenge)
    response = await client.post(
        "/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "client_id": app.client_id,
            "client_secret": app.client_secret,
            "redirect_uri": REDIRECT,
            "code_verifier": verifier,
        },
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["access_token"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
