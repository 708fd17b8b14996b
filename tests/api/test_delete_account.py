"""DELETE /v1/me erases the account: posts gone from every feed on the next read,
follows, likes and comments removed with their counts, media deleted, tokens revoked,
the username reserved for a while. `feedloom accounts delete` does the same."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.images import png
from tests.world import PASSWORD, User, World


async def delete_me(world: World, user: User, password: str) -> int:
    response = await world.client.request(
        "DELETE", "/v1/me", json={"password": password}, headers=user.auth
    )
    return response.status_code


async def upload(world: World, user: User) -> dict[str, Any]:
    ticket = await world.client.post(
        "/v1/media", json={"content_type": "image/png", "width": 4, "height": 4}, headers=user.auth
    )
    uploaded = await world.client.put(ticket.json()["upload_url"], content=png(), headers=user.auth)
    assert uploaded.is_success, uploaded.text
    body: dict[str, Any] = ticket.json()
    return body


async def profile(world: World, reader: User, user: User) -> dict[str, Any]:
    body: dict[str, Any] = (
        await world.client.get(f"/v1/users/{user.id}", headers=reader.auth)
    ).json()
    return body


async def test_deleting_your_account_needs_your_password(world: World) -> None:
    alice = await world.user()
    assert await delete_me(world, alice, "not my password") == 403
    assert (await world.client.get("/v1/me", headers=alice.auth)).status_code == 200


async def test_an_erased_account_leaves_no_post_relation_like_comment_or_file(
    world: World,
) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.follow(carol, alice)
    image = await upload(world, alice)
    alices_post = await world.post(alice, "mine", media_ids=[image["media_id"]])
    bobs_post = await world.post(bob, "bob's")
    for post_id, fan in ((bobs_post, alice), (alices_post, carol)):
        assert (await world.client.put(f"/v1/posts/{post_id}/like", headers=fan.auth)).is_success
        comment = await world.client.post(
            f"/v1/posts/{post_id}/comments", json={"text": "hi"}, headers=fan.auth
        )
        assert comment.status_code == 201
    await world.settle()
    assert alices_post in await world.feed_ids(carol)

    assert await delete_me(world, alice, PASSWORD) == 204
    await world.settle()

    assert (await world.client.get("/v1/me", headers=alice.auth)).status_code == 401
    signed = {"username": alice.username, "password": PASSWORD}
    assert (await world.client.post("/v1/sessions", json=signed)).status_code == 401
    assert alices_post not in await world.feed_ids(carol)
    assert (
        await world.client.get(f"/v1/posts/{alices_post}", headers=carol.auth)
    ).status_code == 404
    item = (await world.client.get(f"/v1/posts/{bobs_post}", headers=bob.auth)).json()
    assert (item["likes"], item["comments"]) == (0, 0)
    comments = await world.client.get(f"/v1/posts/{bobs_post}/comments", headers=bob.auth)
    assert comments.json()["items"] == []
    assert (await profile(world, carol, bob))["followers"] == 0
    assert (await profile(world, bob, carol))["following"] == 0
    assert (await world.client.get(image["url"])).status_code == 404


async def test_the_username_is_reserved_then_free_again(world: World) -> None:
    alice = await world.user()
    assert await delete_me(world, alice, PASSWORD) == 204
    body = {"username": alice.username.upper(), "password": PASSWORD}
    assert (await world.client.post("/v1/accounts", json=body)).status_code == 409
    world.feedloom.services.accounts.username_reserved = timedelta(0)
    again = await world.client.post("/v1/accounts", json=body)
    assert again.status_code == 201
    assert again.json()["id"] != alice.id
    squatter = {"username": f"deleted_{alice.id}", "password": PASSWORD}
    assert (await world.client.post("/v1/accounts", json=squatter)).status_code == 409  # taken


async def test_the_operator_command_erases_the_same_way(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    post_id = await world.post(alice)
    await world.settle()
    await world.feedloom.services.account_lifecycle.delete(alice.username)
    await world.settle()
    assert (await world.client.get("/v1/me", headers=alice.auth)).status_code == 401
    assert post_id not in await world.feed_ids(bob)
    assert (await profile(world, bob, bob))["following"] == 0
