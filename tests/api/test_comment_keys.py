"""Comment Idempotency-Keys follow the post rules: per author, the same request
answers the first comment, another request under the key is a 422, kept a day then
purged by the worker."""

from __future__ import annotations

from datetime import timedelta

from tests.world import User, World


async def comment(world: World, user: User, post_id: str, text: str, key: str) -> tuple[int, str]:
    response = await world.client.post(
        f"/v1/posts/{post_id}/comments",
        json={"text": text},
        headers={**user.auth, "Idempotency-Key": key},
    )
    return response.status_code, response.json().get("id", response.json().get("type", ""))


async def test_a_key_reused_with_other_text_or_on_another_post_is_a_409(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    first_post, second_post = await world.post(alice), await world.post(alice)
    status, first = await comment(world, bob, first_post, "nice", "k1")
    assert status == 201
    assert await comment(world, bob, first_post, "nice", "k1") == (201, first)
    status, kind = await comment(world, bob, first_post, "other text", "k1")
    assert (status, kind.rsplit("/", 1)[-1]) == (409, "idempotency-key-reused")
    status, kind = await comment(world, bob, second_post, "nice", "k1")
    assert status == 409
    await world.settle()
    counts = (await world.client.get(f"/v1/posts/{first_post}", headers=bob.auth)).json()
    assert counts["comments"] == 1


async def test_comment_keys_belong_to_their_author(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    _, mine = await comment(world, alice, post_id, "same", "k1")
    _, theirs = await comment(world, bob, post_id, "same", "k1")
    assert mine != theirs


async def test_a_post_key_is_not_a_comment_key(world: World) -> None:
    alice = await world.user()
    headers = {**alice.auth, "Idempotency-Key": "k1"}
    posted = await world.client.post("/v1/posts", json={"text": "nice"}, headers=headers)
    status, _ = await comment(world, alice, posted.json()["post_id"], "nice", "k1")
    assert status == 409


async def test_comment_keys_are_purged_after_the_ttl_like_post_keys(world: World) -> None:
    alice = await world.user()
    post_id = await world.post(alice)
    _, first = await comment(world, alice, post_id, "nice", "k1")
    ttl = timedelta(hours=world.feedloom.settings.idempotency_ttl_hours)
    later = world.feedloom.runtime.clock() + ttl + timedelta(minutes=1)
    assert await world.feedloom.stores.idempotency.purge_idempotency_keys(later) == 1
    status, second = await comment(world, alice, post_id, "nice", "k1")
    assert status == 201 and second != first  # a key forgotten is a new request
