"""PATCH /v1/posts/{id} and GET /v1/posts/{id}/history on every backend: only the
author edits, within a post's limits, never the visibility; every read shows the new
text at once (post page, feed, search), the history every version; retries with an
Idempotency-Key are safe; bad edits write nothing."""

from __future__ import annotations

from typing import Any

from tests.images import png
from tests.world import User, World


async def edit(world: World, author: User, post_id: str, **body: Any) -> Any:
    return await world.client.patch(f"/v1/posts/{post_id}", json=body, headers=author.auth)


async def history(world: World, reader: User, post_id: str) -> list[dict[str, Any]]:
    response = await world.client.get(f"/v1/posts/{post_id}/history", headers=reader.auth)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def medium(world: World, owner: User, alt: str = "") -> str:
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 8, "height": 8, "alt": alt},
        headers=owner.auth,
    )
    assert ticket.status_code == 201, ticket.text
    upload = await world.client.put(
        ticket.json()["upload_url"], content=png(8, 8), headers=owner.auth
    )
    assert upload.status_code in (200, 204), upload.text
    media_id: str = ticket.json()["media_id"]
    return media_id


async def test_an_edit_shows_everywhere_at_once_with_its_history(world: World) -> None:
    kim, reader = await world.user(), await world.user()
    await world.follow(reader, kim)
    post_id = await world.post(kim, "a helo world")
    await world.settle()
    assert (await world.feed(reader))["items"][0]["edited_at"] is None
    response = await edit(world, kim, post_id, text="a hello world")
    assert response.status_code == 200, response.text
    assert response.json()["text"] == "a hello world" and response.json()["edited_at"]
    page = await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)
    assert page.json()["text"] == "a hello world"
    item = (await world.feed(reader))["items"][0]
    assert (item["text"], item["edited_at"]) == ("a hello world", response.json()["edited_at"])
    search = await world.client.get("/v1/search", params={"q": "hello"}, headers=reader.auth)
    assert [found["post_id"] for found in search.json()["items"]] == [post_id]
    stale = await world.client.get("/v1/search", params={"q": "helo"}, headers=reader.auth)
    assert stale.json()["items"] == []
    versions = await history(world, reader, post_id)
    assert [(v["version"], v["text"], v["current"]) for v in versions] == [
        (1, "a helo world", False),
        (2, "a hello world", True),
    ]
    assert {v["author"]["id"] for v in versions} == {kim.id}
    assert versions[1]["written_at"] == response.json()["edited_at"]
    assert versions[0]["written_at"] == page.json()["created_at"]


async def test_an_edit_parses_its_text_again_and_records_the_mentions_it_adds(
    world: World,
) -> None:
    kim, bo = await world.user(), await world.user()
    post_id = await world.post(kim, "hello there")
    response = await edit(world, kim, post_id, text=f"hello @{bo.username} #Café")
    assert response.status_code == 200, response.text
    assert response.json()["mentions"] == [{"id": bo.id, "username": bo.username}]
    kinds = [(facet["type"], facet["start"]) for facet in response.json()["facets"]]
    assert kinds == [("mention", 6), ("tag", 8 + len(bo.username))]
    log = world.feedloom.stores.mentions
    recorded = await log.mentions_of(int(bo.id), None, 10)
    assert [(m.post_id, m.author_id) for m in recorded] == [(int(post_id), int(kim.id))]
    back = await edit(world, kim, post_id, text="hello again")
    assert back.json()["mentions"] == [] and back.json()["facets"] == []
    assert await log.mentions_of(int(bo.id), None, 10) == []


async def test_media_and_alt_text_change_within_the_limits(world: World) -> None:
    kim = await world.user()
    first, second = await medium(world, kim, "a cat"), await medium(world, kim)
    post_id = await world.post(kim, "pets", media_ids=[first])
    response = await edit(
        world, kim, post_id, media=[{"id": second, "alt": "a dog"}, {"id": first}]
    )
    assert response.status_code == 200, response.text
    assert [m["alt"] for m in response.json()["media"]] == ["a dog", "a cat"]
    versions = await history(world, kim, post_id)
    assert [len(v["media"]) for v in versions] == [1, 2]
    cleared = await edit(world, kim, post_id, media=[])
    assert cleared.status_code == 200 and cleared.json()["media"] == []
    too_many = await edit(world, kim, post_id, media=[{"id": first}] * 5)
    assert too_many.status_code == 422
    blank = await edit(world, kim, post_id, text="  ")
    assert blank.status_code == 409  # no text and no media would be left
    emptied = await edit(world, kim, post_id, text="", media=[])
    assert emptied.status_code == 422  # an empty post, whatever it was


async def test_someone_elses_post_is_404_and_a_bad_edit_writes_nothing(world: World) -> None:
    kim, other = await world.user(), await world.user()
    post_id = await world.post(kim, "mine", visibility="followers")
    for response, status in (
        (await edit(world, other, post_id, text="yours now"), 404),
        (await edit(world, kim, post_id, visibility="public"), 409),
        (await edit(world, kim, post_id, text="x" * 10_001), 422),
        (await edit(world, kim, post_id, text="x" * 501), 422),
        (await edit(world, kim, post_id, text="ok", mood="happy"), 422),
        (await edit(world, kim, "9" * 25, text="no such post"), 404),
    ):
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/problem+json"
    assert [v["text"] for v in await history(world, kim, post_id)] == ["mine"]
    hidden = await world.client.get(f"/v1/posts/{post_id}/history", headers=other.auth)
    assert hidden.status_code == 404  # followers-only, and not a follower
    same = await edit(world, kim, post_id, text="mine", visibility="followers")
    assert same.status_code == 200 and same.json()["edited_at"] is None  # nothing changed


async def test_a_deleted_post_cannot_be_edited(world: World) -> None:
    kim = await world.user()
    post_id = await world.post(kim, "soon gone")
    await world.client.delete(f"/v1/posts/{post_id}", headers=kim.auth)
    assert (await edit(world, kim, post_id, text="back")).status_code == 404


async def test_an_edit_with_an_idempotency_key_is_safe_to_retry(world: World) -> None:
    kim = await world.user()
    post_id = await world.post(kim, "one")
    headers = {**kim.auth, "Idempotency-Key": "edit-1"}
    url = f"/v1/posts/{post_id}"
    first = await world.client.patch(url, json={"text": "two"}, headers=headers)
    again = await world.client.patch(url, json={"text": "two"}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(await history(world, kim, post_id)) == 2
    other = await world.client.patch(url, json={"text": "three"}, headers=headers)
    assert other.status_code == 409
    assert [v["text"] for v in await history(world, kim, post_id)] == ["one", "two"]
