"""Behind a trusted proxy (FEEDLOOM_HTTP__TRUSTED_PROXIES, here 127.0.0.1: the test
client's address) the per-address limits count the client the proxy names, the
right-most hop no trusted proxy wrote; what the client wrote left of it changes
nothing. The default, no proxy trusted, is held by
tests/integration/test_trusted_proxies.py against a real server."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from feedloom.ports import RateRule
from feedloom.settings import Settings
from tests.conftest import shrunk_settings
from tests.integration.test_cache_loss import running
from tests.world import PASSWORD, World


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shrunk = shrunk_settings(tmp_path)
    http = shrunk.http.model_copy(update={"trusted_proxies": [ipaddress.ip_network("127.0.0.1")]})
    return shrunk.model_copy(update={"http": http})


def limit(world: World, rule: str, amount: int) -> None:
    world.feedloom.services.throttle.rules[rule] = RateRule(rule, amount, 300)


async def sign_in(world: World, headers: dict[str, str]) -> int:
    body = {"username": "nobody_here", "password": "wrong password"}
    return (await world.client.post("/v1/sessions", json=body, headers=headers)).status_code


async def test_sign_in_is_limited_per_client_the_proxy_names(world: World) -> None:
    limit(world, "sign_in_per_address", 2)
    rotating = [{"X-Forwarded-For": f"6.6.6.{n}, 203.0.113.9"} for n in range(3)]
    assert [await sign_in(world, headers) for headers in rotating] == [401, 401, 429]
    assert await sign_in(world, {"X-Forwarded-For": "203.0.113.10"}) == 401


async def test_sign_up_is_limited_per_client_the_proxy_names(world: World) -> None:
    limit(world, "sign_up_per_address", 1)
    chains = ["6.6.6.1, 203.0.113.9", "6.6.6.2, 203.0.113.9", "203.0.113.10"]
    statuses = []
    for n, chain in enumerate(chains):
        body = {"username": f"joiner_{n}", "password": "a long password"}
        answer = await world.client.post(
            "/v1/accounts", json=body, headers={"X-Forwarded-For": chain}
        )
        statuses.append(answer.status_code)
    assert statuses == [201, 429, 201]


async def test_a_proxy_that_writes_forwarded_is_read_by_rfc_7239(app_settings: Settings) -> None:
    http = app_settings.http.model_copy(update={"forwarded_header": "forwarded"})
    async with running(app_settings.model_copy(update={"http": http})) as world:
        limit(world, "sign_in_per_address", 2)
        client = 'for="[2001:db8::17]:4711";proto=https'
        rotating = [{"Forwarded": f"for=6.6.6.{n}, {client}"} for n in range(3)]
        # X-Forwarded-For, which this proxy does not write, is the client's: ignored.
        rotating[2]["X-Forwarded-For"] = "198.51.100.7"
        assert [await sign_in(world, headers) for headers in rotating] == [401, 401, 429]
        assert await sign_in(world, {"Forwarded": "for=2001:db8::18"}) == 401


async def test_https_at_the_proxy_makes_the_device_cookie_secure(world: World) -> None:
    alice = await world.user()
    body = {"username": alice.username, "password": PASSWORD}
    for proto, secure in (("https", True), ("http", False)):
        headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": proto}
        signed_in = await world.client.post("/v1/sessions", json=body, headers=headers)
        [cookie] = signed_in.headers.get_list("set-cookie")
        assert ("; secure" in cookie.lower()) is secure, cookie
