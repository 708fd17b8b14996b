"""Media on an S3-compatible bucket (moto's server, started by the test run), on
every backend: POST /v1/media hands out a presigned PUT straight to the bucket, the
bytes never pass through the API, a post attaches the medium once they are there,
and the worker checks them before anyone is shown them (write/media_check.py)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from PIL import Image

from feedloom.settings import Settings
from tests.conftest import shrunk_settings
from tests.images import jpeg_with_location, png
from tests.s3 import S3Server, new_bucket, with_bucket
from tests.world import PASSWORD, User, World


@pytest.fixture
async def settings(tmp_path: Path, s3: S3Server) -> AsyncIterator[Settings]:
    async with new_bucket(s3) as bucket:
        yield with_bucket(shrunk_settings(tmp_path), bucket).model_copy(
            update={"media_max_bytes": 8192}
        )


async def upload(world: World, user: User, content: bytes, content_type: str) -> Any:
    """POST /v1/media, then the PUT a browser would send: to the bucket, no token."""
    response = await world.client.post(
        "/v1/media",
        json={"content_type": content_type, "width": 10, "height": 10},
        headers=user.auth,
    )
    assert response.status_code == 201, response.text
    ticket = response.json()
    assert ticket["upload_headers"] == {"Content-Type": content_type}
    async with httpx.AsyncClient() as bucket:
        sent = await bucket.put(
            ticket["upload_url"], content=content, headers=ticket["upload_headers"]
        )
    assert sent.status_code == 200, sent.text
    return ticket


async def fetched(world: World, url: str) -> httpx.Response:
    """An image URL followed as a browser would: the API redirects to a signed GET."""
    redirect = await world.client.get(url)
    assert redirect.status_code == 307, redirect.text
    assert redirect.headers["cache-control"] == "public, max-age=1800"
    async with httpx.AsyncClient() as bucket:
        return await bucket.get(redirect.headers["location"])


def name_of(url: str) -> str:
    return urlsplit(url).path.rsplit("/", 1)[-1]


async def test_an_upload_goes_to_the_bucket_and_shows_once_the_worker_checked_it(
    world: World, settings: Settings
) -> None:
    alice, reader = await world.user(), await world.user()
    await world.follow(reader, alice)
    photo = await upload(world, alice, jpeg_with_location(), "image/jpeg")
    wide = await upload(world, alice, png(1200, 800), "image/png")
    endpoint = settings.media.s3_endpoint_url
    assert endpoint is not None and photo["upload_url"].startswith(endpoint)
    post_id = await world.post(alice, "look", media_ids=[photo["media_id"], wide["media_id"]])
    # Not checked yet: nobody is shown them, not even their author.
    shown = await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)
    assert shown.json()["media"] == []
    assert (await world.client.get(photo["url"])).status_code == 307  # a link to nothing yet
    assert (await fetched(world, photo["url"])).status_code in (403, 404)

    await world.settle()  # the worker checks them and makes their sizes

    [item] = (await world.feed(reader))["items"]
    first, second = item["media"]
    assert (first["url"], first["w"], first["h"], first["sizes"]) == (photo["url"], 32, 16, [])
    served = await fetched(world, first["url"])
    assert (served.status_code, served.headers["content-type"]) == (200, "image/jpeg")
    image = Image.open(io.BytesIO(served.content))
    assert not image.getexif() and b"SpyCam" not in served.content  # re-encoded, no EXIF
    assert (second["url"], second["w"], second["h"]) == (wide["url"], 1200, 800)
    assert [(s["w"], s["h"]) for s in second["sizes"]] == [
        (96, 64),
        (160, 107),
        (480, 320),
        (1080, 720),
    ]
    for size in second["sizes"]:
        copy = await fetched(world, size["url"])
        assert copy.headers["content-type"] == "image/webp"
        assert Image.open(io.BytesIO(copy.content)).size == (size["w"], size["h"])
    uploads = world.feedloom.stores.direct_uploads
    assert uploads is not None
    assert await uploads.upload_size(name_of(photo["url"])) is None  # taken and dropped


async def test_an_upload_that_is_not_an_image_is_discarded_and_never_shown(
    world: World,
) -> None:
    alice = await world.user()
    html = await upload(world, alice, b"<html><script>alert(1)</script></html>", "image/png")
    good = await upload(world, alice, png(8, 8), "image/png")
    post_id = await world.post(alice, "two", media_ids=[html["media_id"], good["media_id"]])
    await world.settle()
    media = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()["media"]
    assert [m["url"] for m in media] == [good["url"]]
    assert await world.feedloom.stores.objects.get(name_of(html["url"])) is None
    uploads = world.feedloom.stores.direct_uploads
    assert uploads is not None and await uploads.upload_size(name_of(html["url"])) is None
    assert await world.feedloom.stores.media.media_by_id(int(html["media_id"])) is None


async def test_media_not_in_the_bucket_or_too_big_cannot_be_attached(world: World) -> None:
    alice = await world.user()
    response = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 4, "height": 4},
        headers=alice.auth,
    )
    never_sent = response.json()["media_id"]
    big = await upload(world, alice, b"x" * 9000, "image/png")  # the limit here: 8,192 bytes
    # Never uploaded: not found (like someone else's media); uploaded but too big: 422.
    cases = ((never_sent, 404, "you uploaded"), (big["media_id"], 422, "8192 bytes"))
    for media_id, status, detail in cases:
        refused = await world.client.post(
            "/v1/posts", json={"text": "x", "media_ids": [media_id]}, headers=alice.auth
        )
        assert refused.status_code == status, refused.text
        assert detail in refused.json()["detail"]


async def test_the_apis_own_upload_url_is_not_used_with_a_bucket(world: World) -> None:
    alice = await world.user()
    ticket = await upload(world, alice, png(4, 4), "image/png")
    url = f"/v1/media/{ticket['media_id']}/content?expires=4102444800&signature=00"
    refused = await world.client.put(url, content=png(4, 4), headers=alice.auth)
    assert refused.status_code == 404


async def test_an_avatar_from_the_bucket_becomes_its_small_copy(world: World) -> None:
    alice = await world.user()
    ticket = await upload(world, alice, png(300, 200), "image/png")
    patched = await world.client.patch(
        "/v1/me", json={"avatar_media_id": ticket["media_id"]}, headers=alice.auth
    )
    assert patched.status_code == 200, patched.text
    await world.settle()
    me = (await world.client.get("/v1/me", headers=alice.auth)).json()
    assert me["avatar"].endswith("_96.webp")
    assert (await fetched(world, me["avatar"])).status_code == 200


async def test_orphans_and_erased_accounts_leave_nothing_in_the_bucket(world: World) -> None:
    alice = await world.user()
    kept, orphan = [await upload(world, alice, png(200, 100), "image/png") for _ in range(2)]
    await world.post(alice, "kept", media_ids=[kept["media_id"]])
    await world.settle()
    jobs = world.feedloom.services.worker.media_jobs
    assert jobs is not None
    assert await jobs.clean_orphans(older_than=timedelta(0)) == 1
    uploads, objects = world.feedloom.stores.direct_uploads, world.feedloom.stores.objects
    assert uploads is not None
    assert await uploads.upload_size(name_of(orphan["url"])) is None  # its upload went too
    [item] = (await world.client.get(f"/v1/users/{alice.id}/posts", headers=alice.auth)).json()[
        "items"
    ]
    names = [name_of(u) for u in (kept["url"], *(s["url"] for s in item["media"][0]["sizes"]))]
    assert len(names) == 3 and all([await objects.get(name) for name in names])

    erased = await world.client.request(
        "DELETE", "/v1/me", json={"password": PASSWORD}, headers=alice.auth
    )
    assert erased.status_code == 204, erased.text
    assert [await objects.get(name) for name in names] == [None, None, None]


async def test_the_web_client_may_upload_to_the_bucket_and_show_its_images(
    world: World, settings: Settings
) -> None:
    page = await world.client.get("/")
    policy = dict(
        part.split(" ", 1) for part in page.headers["content-security-policy"].split("; ")
    )
    endpoint = settings.media.s3_endpoint_url
    assert policy["connect-src"] == f"'self' {endpoint}"
    assert policy["img-src"] == f"'self' blob: {endpoint}"
