"""Media: presigned upload, then a post that references it."""

from __future__ import annotations

from datetime import timedelta

from tests.world import World

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


async def test_an_uploaded_image_shows_in_the_post_with_its_size(world: World) -> None:
    alice = await world.user()
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 640, "height": 480},
        headers=alice.auth,
    )
    assert ticket.status_code == 201
    upload = await world.client.put(ticket.json()["upload_url"], content=PNG)
    assert upload.status_code == 204
    post_id = await world.post(alice, "look", media_ids=[ticket.json()["media_id"]])
    item = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    assert item["media"] == [{"url": ticket.json()["url"], "w": 640, "h": 480}]
    served = await world.client.get(ticket.json()["url"])
    assert served.status_code == 200 and served.content == PNG


async def test_a_tampered_upload_signature_is_refused(world: World) -> None:
    alice = await world.user()
    ticket = await world.client.post(
        "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}, headers=alice.auth
    )
    url = ticket.json()["upload_url"].replace("signature=", "signature=0")
    assert (await world.client.put(url, content=PNG)).status_code == 403


async def test_someone_elses_media_cannot_be_attached(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    ticket = await world.client.post(
        "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}, headers=alice.auth
    )
    response = await world.client.post(
        "/v1/posts",
        json={"text": "mine?", "media_ids": [ticket.json()["media_id"]]},
        headers=bob.auth,
    )
    assert response.status_code == 422


async def test_unsupported_media_types_are_refused(world: World) -> None:
    alice = await world.user()
    response = await world.client.post(
        "/v1/media", json={"content_type": "text/html", "width": 1, "height": 1}, headers=alice.auth
    )
    assert response.status_code == 422


async def test_cleanup_deletes_media_no_post_attached_and_keeps_the_rest(world: World) -> None:
    alice = await world.user()
    tickets = []
    for _ in range(2):
        ticket = await world.client.post(
            "/v1/media",
            json={"content_type": "image/png", "width": 2, "height": 2},
            headers=alice.auth,
        )
        assert (await world.client.put(ticket.json()["upload_url"], content=PNG)).status_code == 204
        tickets.append(ticket.json())
    used, orphan = tickets
    post_id = await world.post(alice, "one of two", media_ids=[used["media_id"]])
    # A deleted post keeps its (tombstoned) row, and with it its media.
    await world.feedloom.services.delete_post(int(alice.id), int(post_id))
    cleanup = world.feedloom.services.media_cleanup

    assert (await cleanup(timedelta(0), dry_run=True)).rows == 1
    swept = await cleanup(timedelta(0))

    assert (swept.rows, swept.files) == (1, 1)
    media = world.feedloom.stores.media
    assert await media.media_by_id(int(orphan["media_id"])) is None
    assert await media.media_by_id(int(used["media_id"])) is not None
    assert (await world.client.get(used["url"])).status_code == 200
    assert (await world.client.get(orphan["url"])).status_code == 404
