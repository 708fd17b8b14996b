"""Media: presigned upload, then a post that references it."""

from __future__ import annotations

import hashlib
import hmac
import io
from datetime import timedelta
from typing import Any

from PIL import Image

from tests.images import image_bytes, jpeg_with_location, png, png_claiming
from tests.world import User, World

PNG = png(64, 48)


async def test_an_uploaded_image_shows_in_the_post_with_its_size(world: World) -> None:
    alice = await world.user()
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 640, "height": 480},
        headers=alice.auth,
    )
    assert ticket.status_code == 201
    upload = await world.client.put(ticket.json()["upload_url"], content=PNG, headers=alice.auth)
    assert upload.status_code == 204
    post_id = await world.post(alice, "look", media_ids=[ticket.json()["media_id"]])
    item = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    # The ticket claimed 640x480: the post shows what the image really is.
    assert item["media"] == [
        {"url": ticket.json()["url"], "w": 64, "h": 48, "alt": "", "sizes": []}
    ]
    served = await world.client.get(ticket.json()["url"])
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert Image.open(io.BytesIO(served.content)).size == (64, 48)


async def test_a_tampered_upload_signature_is_refused(world: World) -> None:
    alice = await world.user()
    ticket = await world.client.post(
        "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}, headers=alice.auth
    )
    url = ticket.json()["upload_url"].replace("signature=", "signature=0")
    assert (await world.client.put(url, content=PNG, headers=alice.auth)).status_code == 403


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
    assert response.status_code == 404  # missing to bob, as a post he may not see is


async def test_unsupported_media_types_are_refused(world: World) -> None:
    alice = await world.user()
    response = await world.client.post(
        "/v1/media", json={"content_type": "text/html", "width": 1, "height": 1}, headers=alice.auth
    )
    assert response.status_code == 422


async def test_a_size_is_a_json_integer_not_true(world: World) -> None:
    alice = await world.user()
    for width, status in ((True, 422), (2.5, 422), (2.0, 201)):
        body = {"content_type": "image/png", "width": width, "height": 1}
        response = await world.client.post("/v1/media", json=body, headers=alice.auth)
        assert response.status_code == status, width


async def ticket_for(world: World, user: User, content_type: str = "image/png") -> Any:
    response = await world.client.post(
        "/v1/media",
        json={"content_type": content_type, "width": 10, "height": 10},
        headers=user.auth,
    )
    assert response.status_code == 201, response.text
    return response.json()


async def test_an_upload_is_checked_for_what_it_is_not_what_it_claims(world: World) -> None:
    alice = await world.user()
    cases = {
        "not an image": (b"<html><script>alert(1)</script></html>", "not an image"),
        "a JPEG sent as PNG": (image_bytes(8, 8, "JPEG"), "JPEG image, not the png"),
        "a decompression bomb": (png_claiming(100_000, 100_000), "pixels"),
        "too many pixels": (png_claiming(8_000, 8_000), "pixels"),
    }
    for name, (content, reason) in cases.items():
        ticket = await ticket_for(world, alice)
        response = await world.client.put(ticket["upload_url"], content=content, headers=alice.auth)
        assert response.status_code == 422, name
        assert response.headers["content-type"] == "application/problem+json"
        assert reason in response.json()["detail"], (name, response.json())
        refused = await world.client.post(
            "/v1/posts", json={"text": "x", "media_ids": [ticket["media_id"]]}, headers=alice.auth
        )
        assert refused.status_code == 404, name  # nothing stored: nothing to attach


async def test_exif_and_gps_metadata_are_stripped(world: World) -> None:
    alice = await world.user()
    ticket = await ticket_for(world, alice, "image/jpeg")
    assert Image.open(io.BytesIO(jpeg_with_location())).getexif()  # it had some
    assert (
        await world.client.put(
            ticket["upload_url"], content=jpeg_with_location(), headers=alice.auth
        )
    ).status_code == 204
    served = await world.client.get(ticket["url"])
    image = Image.open(io.BytesIO(served.content))
    assert served.headers["content-type"] == "image/jpeg"
    assert not image.getexif() and b"SpyCam" not in served.content
    assert image.size == (32, 16)


async def test_an_upload_url_works_once_so_published_bytes_never_change(world: World) -> None:
    alice = await world.user()
    ticket = await ticket_for(world, alice)
    assert (
        await world.client.put(ticket["upload_url"], content=png(4, 4), headers=alice.auth)
    ).status_code == 204
    await world.post(alice, "look", media_ids=[ticket["media_id"]])
    again = await world.client.put(ticket["upload_url"], content=png(9, 9), headers=alice.auth)
    assert again.status_code == 409
    served = await world.client.get(ticket["url"])
    assert Image.open(io.BytesIO(served.content)).size == (4, 4)


async def test_media_whose_bytes_never_arrived_cannot_be_attached(world: World) -> None:
    alice = await world.user()
    ticket = await ticket_for(world, alice)
    response = await world.client.post(
        "/v1/posts", json={"text": "x", "media_ids": [ticket["media_id"]]}, headers=alice.auth
    )
    assert response.status_code == 404


async def test_a_worker_makes_sizes_and_until_then_the_original_is_served(world: World) -> None:
    alice, reader = await world.user(), await world.user()
    await world.follow(reader, alice)
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 1200, "height": 800, "alt": " A red field "},
        headers=alice.auth,
    )
    upload = await world.client.put(
        ticket.json()["upload_url"], content=png(1200, 800), headers=alice.auth
    )
    assert upload.status_code == 204
    post_id = await world.post(alice, "big", media_ids=[ticket.json()["media_id"]])
    before = (await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)).json()
    [media] = before["media"]
    assert (media["url"], media["alt"], media["sizes"]) == (ticket.json()["url"], "A red field", [])
    await world.settle()  # the worker makes the sizes
    [media] = (await world.feed(reader))["items"][0]["media"]
    sizes = [(s["w"], s["h"]) for s in media["sizes"]]
    assert sizes == [(96, 64), (160, 107), (480, 320), (1080, 720)]
    for size in media["sizes"]:
        served = await world.client.get(size["url"])
        assert served.status_code == 200
        assert served.headers["content-type"] == "image/webp"
        assert served.headers["x-content-type-options"] == "nosniff"
        assert Image.open(io.BytesIO(served.content)).size == (size["w"], size["h"])
    assert (await world.client.get(media["url"])).status_code == 200  # the original stays


async def test_uploads_attached_to_nothing_are_deleted_as_orphans(world: World) -> None:
    alice = await world.user()
    kept, avatar, orphan = [await ticket_for(world, alice) for _ in range(3)]
    for ticket in (kept, avatar, orphan):
        assert (
            await world.client.put(ticket["upload_url"], content=png(4, 4), headers=alice.auth)
        ).status_code == 204
    await world.post(alice, "kept", media_ids=[kept["media_id"]])
    patched = await world.client.patch(
        "/v1/me", json={"avatar_media_id": avatar["media_id"]}, headers=alice.auth
    )
    assert patched.status_code == 200
    jobs = world.feedloom.services.worker.media_jobs
    assert jobs is not None
    assert await jobs.clean_orphans(older_than=timedelta(0)) == 1
    assert (await world.client.get(orphan["url"])).status_code == 404
    for ticket in (kept, avatar):
        assert (await world.client.get(ticket["url"])).status_code == 200
    late = await world.client.post(
        "/v1/posts", json={"text": "x", "media_ids": [orphan["media_id"]]}, headers=alice.auth
    )
    assert late.status_code == 404


async def test_cleanup_deletes_media_no_post_attached_and_keeps_the_rest(world: World) -> None:
    alice = await world.user()
    tickets = []
    for _ in range(2):
        ticket = await world.client.post(
            "/v1/media",
            json={"content_type": "image/png", "width": 2, "height": 2},
            headers=alice.auth,
        )
        assert (
            await world.client.put(ticket.json()["upload_url"], content=PNG, headers=alice.auth)
        ).status_code == 204
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


async def test_an_upload_url_is_refused_to_anyone_but_its_uploader(world: World) -> None:
    alice, mallory = await world.user(), await world.user()
    ticket = await ticket_for(world, alice)
    html = b"<html><script>alert(1)</script></html>"
    anonymous = await world.client.put(ticket["upload_url"], content=html)
    assert anonymous.status_code == 401
    someone_else = await world.client.put(
        ticket["upload_url"], content=png(3, 3), headers=mallory.auth
    )
    assert someone_else.status_code == 403
    assert (await world.client.get(ticket["url"])).status_code == 404  # nothing was stored
    mine = await world.client.put(ticket["upload_url"], content=png(4, 4), headers=alice.auth)
    assert mine.status_code == 204


async def test_a_signature_forged_the_old_way_with_the_old_placeholder_is_refused(
    world: World,
) -> None:
    alice, mallory = await world.user(), await world.user()
    ticket = await ticket_for(world, alice)
    expires = 4_102_444_800  # 2100: not expired
    for key in ("change-me", "a-test-secret-key-for-this-suite-only"):
        message = f"{ticket['media_id']}:{expires}".encode()
        forged = hmac.new(key.encode(), message, hashlib.sha256).hexdigest()
        url = f"/v1/media/{ticket['media_id']}/content?expires={expires}&signature={forged}"
        for who in (alice, mallory):
            response = await world.client.put(url, content=png(3, 3), headers=who.auth)
            assert response.status_code == 403, (key, who.username)
    assert (await world.client.get(ticket["url"])).status_code == 404
