"""An operator suspends, reinstates, deletes and gives roles to accounts
(write/account_lifecycle.py): suspension works at once, on the very next request."""

from __future__ import annotations

from feedloom.domain.model import Role
from tests.world import PASSWORD, World


async def test_a_suspended_account_is_signed_out_and_cannot_sign_in_again(world: World) -> None:
    user = await world.user()
    assert (await world.client.get("/v1/me", headers=user.auth)).status_code == 200

    await world.feedloom.services.account_lifecycle.suspend(user.username)

    assert (await world.client.get("/v1/me", headers=user.auth)).status_code == 401
    session = await world.client.post(
        "/v1/sessions", json={"username": user.username, "password": PASSWORD}
    )
    assert session.status_code == 401


async def test_a_suspended_authors_posts_leave_every_feed_and_come_back_when_reinstated(
    world: World,
) -> None:
    author, reader = await world.user(), await world.user()
    await world.follow(reader, author)
    post_id = await world.post(author, "soon hidden")
    await world.settle()
    assert post_id in await world.feed_ids(reader)  # cached now: the post and the profile
    lifecycle = world.feedloom.services.account_lifecycle

    await lifecycle.suspend(author.username)

    assert post_id not in await world.feed_ids(reader)
    assert (await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)).status_code == 404
    profile = await world.client.get(f"/v1/users/{author.id}", headers=reader.auth)
    assert profile.status_code == 404
    await lifecycle.reinstate(author.username)
    assert post_id in await world.feed_ids(reader)


async def test_a_deleted_account_is_gone_for_good(world: World) -> None:
    user = await world.user()
    lifecycle = world.feedloom.services.account_lifecycle

    deleted = await lifecycle.delete(user.username)

    assert deleted.deleted_at is not None
    assert (await world.client.get("/v1/me", headers=user.auth)).status_code == 401
    reinstated = await world.client.post(
        "/v1/sessions", json={"username": user.username, "password": PASSWORD}
    )
    assert reinstated.status_code == 401


async def test_a_role_is_stored_and_taken_away(world: World) -> None:
    user = await world.user()
    lifecycle = world.feedloom.services.account_lifecycle

    assert (await lifecycle.set_role(user.username, Role.MODERATOR)).role is Role.MODERATOR
    assert (await lifecycle.set_role(user.username, None)).role is None


async def test_a_new_password_signs_the_account_out_and_works_at_once(world: World) -> None:
    user = await world.user()
    lifecycle = world.feedloom.services.account_lifecycle

    await lifecycle.modify(user.username, "New Name", "a brand new password")

    assert (await world.client.get("/v1/me", headers=user.auth)).status_code == 401
    session = await world.client.post(
        "/v1/sessions", json={"username": user.username, "password": "a brand new password"}
    )
    assert session.status_code == 201
    me = await world.client.get(
        "/v1/me", headers={"Authorization": f"Bearer {session.json()['token']}"}
    )
    assert me.json()["name"] == "New Name"
