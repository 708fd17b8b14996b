"""Sign-in limits that nobody can turn against the owner (write/sign_in.py): a flood of
wrong passwords from many addresses is held to the per-account limit, and still the
owner signs in, from an address that signed in to the account before or with the
device cookie a sign-in set. Clients at other addresses are ASGI clients of their own
(each with its own cookie jar)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie

import httpx
from fastapi import FastAPI

from feedloom.ports import RateRule
from feedloom.settings import RateLimitSettings
from tests.world import PASSWORD, World

FLOOD_ADDRESSES = [f"203.0.113.{n}" for n in range(1, 21)]
DEVICE = "feedloom_device"


@contextlib.asynccontextmanager
async def client_at(app: FastAPI, address: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=(address, 50_000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def sign_in(client: httpx.AsyncClient, username: str, password: str) -> httpx.Response:
    return await client.post("/v1/sessions", json={"username": username, "password": password})


def limit(world: World, rule: str, amount: int) -> None:
    world.feedloom.services.throttle.rules[rule] = RateRule(rule, amount, 300)


async def test_the_owner_signs_in_during_a_flood_of_wrong_passwords_from_20_addresses(
    world: World, app: FastAPI
) -> None:
    owner = await world.user()
    world.feedloom.services.throttle.rules.update(RateLimitSettings().rules())  # the defaults
    async with (
        client_at(app, "192.0.2.10") as phone_app,  # an API client: no cookies kept
        client_at(app, "192.0.2.20") as browser,
    ):
        assert (await sign_in(phone_app, owner.username, PASSWORD)).status_code == 201
        phone_app.cookies.clear()
        assert (await sign_in(browser, owner.username, PASSWORD)).status_code == 201
        assert DEVICE in browser.cookies

        flood: list[int] = []
        async with contextlib.AsyncExitStack() as stack:
            attackers = [
                await stack.enter_async_context(client_at(app, a)) for a in FLOOD_ADDRESSES
            ]
            for round_ in range(12):
                for attacker in attackers:
                    answer = await sign_in(attacker, owner.username, f"guess {round_}")
                    flood.append(answer.status_code)
        # The per-account limit's 10 attempts, the owner's two sign-ins above among
        # them: the flood got 8 guesses, and 429 for the rest.
        assert flood.count(401) == 8 and flood.count(429) == len(flood) - 8

        assert (await sign_in(phone_app, owner.username, PASSWORD)).status_code == 201
        async with client_at(app, "198.51.100.77") as on_the_road:  # a new address
            on_the_road.cookies.set(DEVICE, browser.cookies[DEVICE])
            assert (await sign_in(on_the_road, owner.username, PASSWORD)).status_code == 201
        async with client_at(app, "198.51.100.78") as new_device:  # unknown: limited
            refused = await sign_in(new_device, owner.username, PASSWORD)
            assert refused.status_code == 429
            assert refused.json()["detail"].startswith("rate limit sign_in_per_account:")


async def test_the_per_account_limit_stops_unknown_clients_regardless_of_case(
    world: World, app: FastAPI
) -> None:
    alice, bob = await world.user(), await world.user()
    limit(world, "sign_in_per_account", 2)
    async with client_at(app, "198.51.100.1") as one, client_at(app, "198.51.100.2") as two:
        assert (await sign_in(one, alice.username, "wrong password")).status_code == 401
        assert (await sign_in(two, alice.username.upper(), "wrong password")).status_code == 401
        assert (await sign_in(two, alice.username, PASSWORD)).status_code == 429
        assert (await sign_in(two, bob.username, PASSWORD)).status_code == 201
    # world.client signed alice up and in: its address and its device cookie are known.
    assert (await sign_in(world.client, alice.username, PASSWORD)).status_code == 201


async def test_a_known_address_still_has_its_own_limit_per_account(
    world: World, app: FastAPI
) -> None:
    alice = await world.user()
    limit(world, "sign_in_per_account_address", 2)
    world.client.cookies.clear()
    statuses = [(await sign_in(world.client, alice.username, p)).status_code for p in ("x", "y")]
    assert statuses == [401, 401]
    assert (await sign_in(world.client, alice.username, PASSWORD)).status_code == 429
    async with client_at(app, "198.51.100.3") as elsewhere:
        assert (await sign_in(elsewhere, alice.username, PASSWORD)).status_code == 201


async def test_the_device_cookie_is_httponly_strict_and_vouches_for_its_own_account_only(
    world: World, app: FastAPI
) -> None:
    alice, bob = await world.user(), await world.user()
    async with client_at(app, "192.0.2.30") as browser:
        signed_in = await sign_in(browser, alice.username, PASSWORD)
    [header] = signed_in.headers.get_list("set-cookie")
    cookie = SimpleCookie(header)[DEVICE]
    assert cookie["httponly"] and cookie["samesite"].lower() == "strict"
    assert cookie["path"] == "/v1/sessions" and not cookie["secure"]  # plain http here
    assert cookie["expires"]
    alices = cookie.value

    limit(world, "sign_in_per_account", 1)
    async with client_at(app, "198.51.100.9") as stranger:
        for user in (alice, bob):
            assert (await sign_in(stranger, user.username, "wrong")).status_code == 401
    user_id, expires, signature = alices.split(".")
    for name, cookie_value, status in (
        (bob.username, alices, 429),  # alice's cookie does not vouch for bob
        (alice.username, f"{bob.id}.{expires}.{signature}", 429),  # changed: forged
        (alice.username, "nonsense", 429),
        (alice.username, alices, 201),
    ):
        async with client_at(app, "198.51.100.10") as somewhere_new:
            somewhere_new.cookies.set(DEVICE, cookie_value)
            assert (await sign_in(somewhere_new, name, PASSWORD)).status_code == status
    assert user_id == alice.id
