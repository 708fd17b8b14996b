"""Media through the Mastodon-compatible API: a multipart upload checked by the /v1
pipeline (type, size, metadata stripped), its description set before it is posted."""

from __future__ import annotations

import io

from PIL import Image

from tests.api.mastodon.oauth import bearer, token_for
from tests.images import jpeg_with_location, png
from tests.world import World


async def test_an_upload_is_checked_stripped_and_described(world: World) -> None:
    alice = await world.user()
    auth = bearer(await token_for(world.client, alice))
    files = {"file": ("photo.jpg", jpeg_with_location(), "image/jpeg")}
    sent = await world.client.post(
        "/api/v2/media", files=files, data={"description": "x"}, headers=auth
    )
    assert sent.status_code == 200, sent.text
    attachment = sent.json()
    assert attachment["type"] == "image" and attachment["meta"]["original"]["width"] == 32
    stored = await world.client.get(attachment["url"].removeprefix("http://test"))
    with Image.open(io.BytesIO(stored.content)) as image:
        assert not image.getexif()  # no camera, no position

    described = await world.client.put(
        f"/api/v1/media/{attachment['id']}", data={"description": "a red strip"}, headers=auth
    )
    assert described.json()["description"] == "a red strip"
    status = await world.client.post(
        "/api/v1/statuses", data={"status": "", "media_ids[]": attachment["id"]}, headers=auth
    )
    assert status.json()["media_attachments"][0]["description"] == "a red strip"
    late = await world.client.put(
        f"/api/v1/media/{attachment['id']}", data={"description": "too late"}, headers=auth
    )
    assert late.status_code == 404  # published: its text went out with it


async def test_what_is_not_an_image_or_not_yours_is_refused(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    alice_auth = bearer(await token_for(world.client, alice))
    bob_auth = bearer(await token_for(world.client, bob))
    text = {"file": ("notes.txt", b"not an image", "text/plain")}
    refused = await world.client.post("/api/v2/media", files=text, headers=alice_auth)
    assert refused.status_code == 422 and "error" in refused.json()
    missing = await world.client.post("/api/v2/media", data={"x": "y"}, headers=alice_auth)
    assert missing.status_code == 422
    mine = await world.client.post(
        "/api/v2/media", files={"file": ("a.png", png(), "image/png")}, headers=alice_auth
    )
    other = await world.client.put(
        f"/api/v1/media/{mine.json()['id']}", data={"description": "mine now"}, headers=bob_auth
    )
    assert other.status_code == 404
