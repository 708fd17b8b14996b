"""PATCH /v1/me: display name, bio and avatar, shown wherever the author appears."""

from __future__ import annotations

from typing import Any

from tests.images import png
from tests.world import User, World

PNG = png(400, 400)


async def patch_me(world: World, user: User, **body: Any) -> Any:
    response = await world.client.patch("/v1/me", json=body, headers=user.auth)
    assert response.status_code == 200, response.text
    return response.json()


async def uploaded_image(world: World, owner: User) -> dict[str, Any]:
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 96, "height": 96},
        headers=owner.auth,
    )
    assert (
        await world.client.put(ticket.json()["upload_url"], content=PNG, headers=owner.auth)
    ).status_code == 204
    body: dict[str, Any] = ticket.json()
    return body


async def test_name_and_bio_change_and_show_on_the_authors_posts(world: World) -> None:
    alice, reader = await world.user(), await world.user()
    await world.follow(reader, alice)
    await world.post(alice)
    await world.settle()
    await world.feed(reader)  # the old profile is now cached
    me = await patch_me(world, alice, display_name="Alice A.", bio="  hello there  ")
    assert (me["name"], me["bio"]) == ("Alice A.", "hello there")
    assert (await world.client.get("/v1/me", headers=alice.auth)).json()["bio"] == "hello there"
    [item] = (await world.feed(reader))["items"]
    assert item["author"]["name"] == "Alice A."


async def test_fields_not_sent_stay_as_they_are(world: World) -> None:
    alice = await world.user()
    await patch_me(world, alice, display_name="First", bio="one")
    me = await patch_me(world, alice, bio="two")
    assert (me["name"], me["bio"]) == ("First", "two")


async def test_an_uploaded_image_becomes_the_avatar_of_every_item_and_null_removes_it(
    world: World,
) -> None:
    alice = await world.user()
    image = await uploaded_image(world, alice)
    post_id = await world.post(alice)
    me = await patch_me(world, alice, avatar_media_id=image["media_id"])
    assert me["avatar"] == image["url"]
    item = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    assert item["author"]["avatar"] == image["url"]
    assert (await world.feed(alice))["items"][0]["author"]["avatar"] == image["url"]
    await world.settle()  # the worker makes the 96 px copy: it becomes the avatar
    small = (await world.client.get("/v1/me", headers=alice.auth)).json()["avatar"]
    assert small.endswith("_96.webp")
    item = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    assert item["author"]["avatar"] == small
    assert (await world.client.get(small)).headers["content-type"] == "image/webp"
    assert (await patch_me(world, alice, avatar_media_id=None))["avatar"] is None


async def test_someone_elses_or_an_unknown_image_cannot_be_the_avatar(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    image = await uploaded_image(world, bob)
    for media_id, status in ((image["media_id"], 404), ("12345", 404), ("not-an-id", 422)):
        response = await world.client.patch(
            "/v1/me", json={"avatar_media_id": media_id}, headers=alice.auth
        )
        assert response.status_code == status, media_id
        assert response.headers["content-type"] == "application/problem+json"
    assert (await world.client.get("/v1/me", headers=alice.auth)).json()["avatar"] is None


async def test_profile_edits_are_validated(world: World) -> None:
    alice = await world.user()
    for body in ({"display_name": ""}, {"display_name": "   "}, {"bio": "x" * 301}, {"age": 3}):
        response = await world.client.patch("/v1/me", json=body, headers=alice.auth)
        assert response.status_code == 422, body
    assert (await world.client.patch("/v1/me", json={"bio": "x"})).status_code == 401
