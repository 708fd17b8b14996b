"""User tokens an app signs (JWT): accepted as a bearer on /v1; refused with 401
problem+json when expired, for another audience, with another or no algorithm, too
long-lived, or signed by a revoked app; the user created on first sight if allowed."""

from __future__ import annotations

import base64
import json
import time
import warnings
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import generate_private_key

from feedloom.write.apps import AppOptions
from tests.apps import AppUnderTest, make_app
from tests.world import World


def claims(app: AppUnderTest, sub: str, **extra: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": str(app.app_id), "sub": sub, "aud": "feedloom", "exp": now + 600, **extra}


def hs256(app: AppUnderTest, sub: str, **extra: Any) -> str:
    return jwt.encode(claims(app, sub, **extra), app.token_secret, algorithm="HS256")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def status_with(world: World, token: str) -> tuple[int, str]:
    response = await world.client.get("/v1/feed", headers=bearer(token))
    return response.status_code, response.headers["content-type"]


REFUSED = (401, "application/problem+json")


async def test_an_app_signed_token_is_a_bearer_on_every_user_route(world: World) -> None:
    app = await make_app(world)
    user_id = (await app.put_user("t1", "token_user")).json()["user_id"]
    token = hs256(app, "t1")
    me = await world.client.get("/v1/me", headers=bearer(token))
    assert me.status_code == 200 and me.json()["id"] == user_id
    posted = await world.client.post("/v1/posts", json={"text": "hi"}, headers=bearer(token))
    assert posted.status_code == 201
    await world.settle()
    feed = await world.client.get("/v1/feed", headers=bearer(token))
    assert [item["post_id"] for item in feed.json()["items"]] == [posted.json()["post_id"]]


async def test_expired_wrong_audience_and_too_long_tokens_are_refused(world: World) -> None:
    app = await make_app(world)
    await app.put_user("t2", "token_two")
    past = int(time.time()) - 3600
    assert await status_with(world, hs256(app, "t2", exp=past)) == REFUSED
    assert await status_with(world, hs256(app, "t2", aud="someone-else")) == REFUSED
    day_and_more = int(time.time()) + 86_400 + 3600
    assert await status_with(world, hs256(app, "t2", exp=day_and_more)) == REFUSED
    assert await status_with(world, hs256(app, "t2", iss="12345")) == REFUSED
    wrong_secret = jwt.encode(claims(app, "t2"), "another secret of 32 bytes, long!", "HS256")
    assert await status_with(world, wrong_secret) == REFUSED
    assert (await status_with(world, hs256(app, "t2")))[0] == 200


async def test_another_algorithm_and_alg_none_are_refused(world: World) -> None:
    app = await make_app(world)
    await app.put_user("t3", "token_three")
    with warnings.catch_warnings():  # the secret is short for HS512: beside the point
        warnings.simplefilter("ignore", jwt.warnings.InsecureKeyLengthWarning)
        hs512 = jwt.encode(claims(app, "t3"), app.token_secret, algorithm="HS512")
    assert await status_with(world, hs512) == REFUSED
    rsa = generate_private_key(public_exponent=65537, key_size=2048)
    assert await status_with(world, jwt.encode(claims(app, "t3"), rsa, "RS256")) == REFUSED

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    unsigned = f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims(app, 't3'))}."
    assert await status_with(world, unsigned) == REFUSED


async def test_a_revoked_apps_tokens_are_refused_at_once(world: World) -> None:
    app = await make_app(world)
    await app.put_user("t4", "token_four")
    token = hs256(app, "t4")
    assert (await status_with(world, token))[0] == 200
    await world.feedloom.services.apps.admin.revoke(app.app_id)
    assert await status_with(world, token) == REFUSED


async def test_a_token_for_an_unknown_user_creates_it_only_if_the_app_allows(
    world: World,
) -> None:
    strict = await make_app(world)
    assert await status_with(world, hs256(strict, "new-1")) == REFUSED
    lenient = await make_app(world, options=AppOptions(create_users=True))
    token = hs256(lenient, "new-1", name="New One")
    me = await world.client.get("/v1/me", headers=bearer(token))
    assert me.status_code == 200 and me.json()["name"] == "New One"
    again = await world.client.get("/v1/me", headers=bearer(hs256(lenient, "new-1")))
    assert again.json()["id"] == me.json()["id"]
    feed = await lenient.call("get", "/v1/apps/users/new-1/feed")
    assert feed.status_code == 200


async def test_an_erased_users_token_no_longer_names_it(world: World) -> None:
    app = await make_app(world)
    await app.put_user("t5", "token_five")
    token = hs256(app, "t5")
    assert (await status_with(world, token))[0] == 200
    assert (await app.call("delete", "/v1/apps/users/t5")).status_code == 204
    assert await status_with(world, token) == REFUSED


@pytest.mark.parametrize("algorithm", ["EdDSA", "RS256"])
async def test_a_key_pair_app_signs_with_its_private_key_and_its_jwks_checks_it(
    world: World, algorithm: str
) -> None:
    if algorithm == "EdDSA":
        private: Any = Ed25519PrivateKey.generate()
        public = json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(private.public_key()))
    else:
        private = generate_private_key(public_exponent=65537, key_size=2048)
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
    jwks = json.dumps({"keys": [{**public, "kid": "k1"}]})
    app = await make_app(world, options=AppOptions(algorithms=(algorithm,), jwks=jwks))
    await app.put_user("k1", f"pair_{algorithm.lower()}")
    signed = jwt.encode(claims(app, "k1"), private, algorithm, headers={"kid": "k1"})
    assert (await status_with(world, signed))[0] == 200
    # The token secret exists, but this app does not take HS256 tokens: no confusion.
    assert await status_with(world, hs256(app, "k1")) == REFUSED
