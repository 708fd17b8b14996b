"""Responses are gzipped for text above ~1 KB when the client accepts it; media bytes
(already compressed) and event streams (each event must leave at once) never are."""

from __future__ import annotations

import gzip

from fastapi import FastAPI

from tests.api.sse import open_stream
from tests.images import png
from tests.world import World

GZIP = {"Accept-Encoding": "gzip"}


async def test_a_large_feed_page_is_gzipped_and_reads_the_same(world: World) -> None:
    reader, author = await world.user(), await world.user()
    await world.follow(reader, author)
    for n in range(12):
        await world.post(author, f"Post {n}: " + "a sentence long enough to matter. " * 3)
    await world.settle()
    response = await world.client.get("/v1/feed", headers={**reader.auth, **GZIP})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"].lower().count("accept-encoding") == 1
    assert len(response.json()["items"]) == 12  # httpx decoded it
    assert int(response.headers["content-length"]) < len(response.content)


async def test_a_small_answer_or_a_client_without_gzip_gets_it_plain(world: World) -> None:
    small = await world.client.get("/v1/limits", headers=GZIP)
    assert small.status_code == 200 and "content-encoding" not in small.headers
    plain = await world.client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert (await world.client.get("/openapi.json", headers=GZIP)).headers[
        "content-encoding"
    ] == "gzip"


async def test_image_bytes_are_never_gzipped(world: World) -> None:
    alice = await world.user()
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 600, "height": 400},
        headers=alice.auth,
    )
    original = png(600, 400)  # a flat colour: gzip would shrink it, were it allowed to
    assert len(gzip.compress(original)) < len(original)
    upload = await world.client.put(
        ticket.json()["upload_url"], content=original, headers=alice.auth
    )
    assert upload.status_code == 204
    served = await world.client.get(ticket.json()["url"], headers=GZIP)
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/png"
    assert "content-encoding" not in served.headers
    assert served.content == original


async def test_the_event_stream_is_never_gzipped(world: World, app: FastAPI) -> None:
    reader = await world.user()
    async with open_stream(app, "/v1/streams/home", {}, {**reader.auth, **GZIP}) as stream:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in stream.headers
        await stream.ready(10)  # the first bytes arrive as they are, not held for a buffer
