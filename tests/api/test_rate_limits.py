"""Rate limits over HTTP: sign-in per address and per account, sign-up per address,
writes per account (stricter while young), replays free, 429 with its headers."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from feedloom.ports import RateRule
from feedloom.write.throttle import YoungAccounts
from tests.world import PASSWORD, World


def limit(world: World, rule: str, amount: int) -> None:
    world.feedloom.services.throttle.rules[rule] = RateRule(rule, amount, 300)


async def sign_in(world: World, username: str, password: str) -> int:
    body = {"username": username, "password": password}
    return (await world.client.post("/v1/sessions", json=body)).status_code


async def test_sign_in_is_throttled_per_address_whatever_the_password(world: World) -> None:
    alice = await world.user()
    limit(world, "sign_in_per_address", 3)
    assert [await sign_in(world, f"guess_{n}", "wrong password") for n in range(3)] == [401] * 3
    assert await sign_in(world, alice.username, PASSWORD) == 429


async def test_sign_up_is_throttled_per_address(world: World) -> None:
    limit(world, "sign_up_per_address", 1)
    await world.user()
    body = {"username": "second_one", "password": PASSWORD}
    refused = await world.client.post("/v1/accounts", json=body)
    assert refused.status_code == 429
    assert refused.headers["ratelimit-limit"] == "1"


async def test_a_replayed_post_is_not_charged(world: World) -> None:
    alice = await world.user()
    limit(world, "posts", 1)
    headers = {**alice.auth, "Idempotency-Key": "k1"}
    first = await world.client.post("/v1/posts", json={"text": "hi"}, headers=headers)
    again = await world.client.post("/v1/posts", json={"text": "hi"}, headers=headers)
    assert first.json()["post_id"] == again.json()["post_id"]
    other = await world.client.post("/v1/posts", json={"text": "new"}, headers=alice.auth)
    assert other.status_code == 429


async def test_concurrent_retries_of_one_post_are_charged_once(world: World) -> None:
    alice = await world.user()
    limit(world, "posts", 2)
    headers = {**alice.auth, "Idempotency-Key": "k1"}
    retries = await asyncio.gather(
        *(world.client.post("/v1/posts", json={"text": "hi"}, headers=headers) for _ in range(4))
    )
    assert {r.status_code < 300 for r in retries} == {True}
    assert len({r.json()["post_id"] for r in retries}) == 1
    assert (await world.client.post("/v1/posts", json={"text": "2"}, headers=alice.auth)).is_success
    refused = await world.client.post("/v1/posts", json={"text": "3"}, headers=alice.auth)
    assert refused.status_code == 429


async def test_an_account_younger_than_a_day_gets_a_share_of_each_write_limit(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    throttle = world.feedloom.services.throttle
    throttle.young = YoungAccounts(timedelta(days=1), share=0.5)
    limit(world, "follows", 4)
    carol, dave, erin = await world.user(), await world.user(), await world.user()
    for followee in (bob, carol):
        await world.follow(alice, followee)
    refused = await world.client.put(f"/v1/users/{dave.id}/follow", headers=alice.auth)
    assert refused.status_code == 429
    assert refused.headers["ratelimit-limit"] == "2"
    throttle.young = YoungAccounts(timedelta(0), share=0.5)  # alice is of age now
    await world.follow(alice, erin)


async def test_every_write_kind_is_limited(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(bob)
    for rule in ("comments", "likes", "media"):
        limit(world, rule, 1)
    comment = f"/v1/posts/{post_id}/comments"
    assert (await world.client.post(comment, json={"text": "a"}, headers=alice.auth)).is_success
    again = await world.client.post(comment, json={"text": "b"}, headers=alice.auth)
    assert again.status_code == 429
    like = f"/v1/posts/{post_id}/like"
    assert (await world.client.put(like, headers=alice.auth)).is_success
    assert (await world.client.put(like, headers=alice.auth)).is_success  # a retry: free
    assert (await world.client.delete(like, headers=alice.auth)).status_code == 429
    media = {"content_type": "image/png", "width": 1, "height": 1}
    assert (await world.client.post("/v1/media", json=media, headers=alice.auth)).is_success
    assert (await world.client.post("/v1/media", json=media, headers=alice.auth)).status_code == 429
