"""An app's public keys from its JWKS URL (write/jwks.py): fetched through the
SSRF-checked client from a stub server this test runs, cached, fetched again for a
kid the set lacks (a rotation) but not more often than the refetch interval, and a
URL the SSRF rules refuse verifies nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from feedloom.settings import Settings, WebhookSettings
from feedloom.write.apps import AppOptions
from feedloom.write.jwks import RemoteKeySets
from tests.api.test_app_tokens import REFUSED, claims, status_with
from tests.apps import AppUnderTest, make_app
from tests.conftest import shrunk_settings
from tests.stub_http import StubRequest, json_reply, stub_server
from tests.world import World


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shrunk = shrunk_settings(tmp_path)
    return shrunk.model_copy(update={"webhooks": WebhookSettings(allow_loopback=True)})


def public_jwk(private: Ed25519PrivateKey, kid: str) -> dict[str, Any]:
    return {**json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(private.public_key())), "kid": kid}


def signed(app: AppUnderTest, sub: str, private: Ed25519PrivateKey, kid: str) -> str:
    return jwt.encode(claims(app, sub), private, "EdDSA", headers={"kid": kid})


def remote_keys(world: World) -> RemoteKeySets:
    found = world.feedloom.services.apps.tokens.remote_keys
    assert found is not None
    return found


async def test_keys_come_from_the_apps_jwks_url_cached_and_refetched_for_a_new_kid(
    world: World,
) -> None:
    first, second = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    served = {"keys": [public_jwk(first, "k1")]}

    async def jwks(_request: StubRequest) -> tuple[int, dict[str, str], bytes]:
        return json_reply(json.dumps(served).encode())

    async with stub_server(jwks) as stub:
        options = AppOptions(algorithms=("EdDSA",), jwks_url=stub.url("/.well-known/jwks.json"))
        app = await make_app(world, options=options)
        for sub in ("j1", "j2"):
            await app.put_user(sub, f"jwks_{sub}")
        assert (await status_with(world, signed(app, "j1", first, "k1")))[0] == 200
        assert (await status_with(world, signed(app, "j2", first, "k1")))[0] == 200
        assert len(stub.requests) == 1  # the set is cached
        # The app rotates: a token with the new kid has the set fetched again.
        served["keys"] = [public_jwk(first, "k1"), public_jwk(second, "k2")]
        remote_keys(world).refetch_s = 0
        assert (await status_with(world, signed(app, "j1", second, "k2")))[0] == 200
        assert len(stub.requests) == 2
        # Made-up kids: refused, and the URL is not fetched again within the interval.
        remote_keys(world).refetch_s = 60
        for n in range(3):
            assert await status_with(world, signed(app, "j2", second, f"bogus{n}")) == REFUSED
        assert len(stub.requests) == 2
        # A key the set does not hold under its kid does not verify.
        assert await status_with(world, signed(app, "j2", second, "k1")) == REFUSED


async def test_a_jwks_url_the_ssrf_rules_refuse_verifies_no_token(world: World) -> None:
    private = Ed25519PrivateKey.generate()
    options = AppOptions(algorithms=("EdDSA",), jwks_url="http://10.0.0.7/jwks.json")
    app = await make_app(world, options=options)
    await app.put_user("j3", "jwks_j3")
    assert await status_with(world, signed(app, "j3", private, "k1")) == REFUSED


async def test_a_jwks_url_must_be_http(world: World) -> None:
    admin = world.feedloom.services.apps.admin
    with pytest.raises(Exception, match="JWKS URL"):
        await admin.create("bad", frozenset(), AppOptions(("EdDSA",), jwks_url="file:///x"))
