"""Feed generators: the example generator of docs/FEEDS.md read through feedloom (its IDs
filtered for the reader, paged with its cursor), and generators that are slow, broken,
malicious or point where feedloom never sends requests."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.stub_http import Reply, StubRequest, json_reply, stub_server
from tests.world import User, World

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "feed_generator.py"


@pytest.fixture
def example() -> Iterator[tuple[ModuleType, str]]:
    """The docs' example generator, listening on a free port in a thread."""
    spec = importlib.util.spec_from_file_location("feed_generator", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.Skeleton.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), module.Skeleton)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield module, f"http://127.0.0.1:{server.server_address[1]}/skeleton"
    server.shutdown()
    server.server_close()


async def register(world: World, owner: User, uri: str, **body: Any) -> dict[str, Any]:
    response = await world.client.post(
        "/v1/generators", json={"uri": uri, "name": "G", **body}, headers=owner.auth
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def read(world: World, reader: User, generator_id: str, **params: Any) -> dict[str, Any]:
    response = await world.client.get(
        f"/v1/generators/{generator_id}/items", params=params, headers=reader.auth
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_the_example_generator_is_filtered_for_the_reader_and_paged(
    world: World, example: tuple[ModuleType, str]
) -> None:
    module, uri = example
    reader, friend, stranger, blocked, muted = [await world.user() for _ in range(5)]
    shown = [await world.post(stranger, f"pick {n}") for n in range(3)]
    deleted = await world.post(stranger, "deleted later")
    private = await world.post(stranger, "followers only", visibility="followers")
    by_blocked = await world.post(blocked, "blocked")
    by_muted = await world.post(muted, "muted")
    await world.client.delete(f"/v1/posts/{deleted}", headers=stranger.auth)
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocked.auth)
    await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    module.PICKS[:] = [shown[0], deleted, private, shown[1], by_blocked, by_muted, shown[2]]
    generator = await register(world, friend, uri)
    module.SECRET["key"] = generator["secret"]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = await read(world, reader, generator["id"], **params)
        assert page["order"] is None
        seen += [item["post_id"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == shown[::-1]
    # The same generator as a saved feed's source.
    saved = await world.client.post(
        "/v1/feeds",
        json={"name": "Picks", "sources": [f"generator:{uri}"]},
        headers=reader.auth,
    )
    assert saved.status_code == 201, saved.text
    items = await world.client.get(
        f"/v1/feeds/{saved.json()['id']}/items", params={"limit": 20}, headers=reader.auth
    )
    assert [item["post_id"] for item in items.json()["items"]] == shown[::-1]
    # The secret is its registrant's only.
    other = await world.client.get(f"/v1/generators/{generator['id']}", headers=reader.auth)
    assert other.json()["secret"] is None


async def test_a_request_with_the_wrong_secret_is_refused_by_the_generator(
    world: World, example: tuple[ModuleType, str]
) -> None:
    module, uri = example
    reader = await world.user()
    generator = await register(world, reader, uri)
    module.SECRET["key"] = "not the secret"
    response = await world.client.get(
        f"/v1/generators/{generator['id']}/items", headers=reader.auth
    )
    assert response.status_code == 502


async def test_a_slow_generator_is_a_504_and_holds_up_no_other_feed(world: World) -> None:
    reader = await world.user()
    release, asked = asyncio.Event(), asyncio.Event()

    async def slow(request: StubRequest) -> Reply:
        asked.set()
        await asyncio.wait_for(release.wait(), 5)
        return json_reply(b'{"items": []}')

    async with stub_server(slow) as stub:
        generator = await register(world, reader, stub.url())
        url = f"/v1/generators/{generator['id']}/items"
        waiting = asyncio.create_task(world.client.get(url, headers=reader.auth))
        await asyncio.wait_for(asked.wait(), 5)
        home = await world.client.get("/v1/feed", headers=reader.auth)
        assert home.status_code == 200 and not waiting.done()
        response = await waiting
        release.set()
    assert response.status_code == 504
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"].endswith("/upstream-timeout")


MALICIOUS: dict[str, Reply] = {
    "huge": json_reply(b'{"items": [' + b'{"post_id": "1"},' * 1000 + b'{"post_id": "1"}]}'),
    "redirect": (302, {"location": "http://169.254.169.254/latest/meta-data/"}, b""),
    "not json": (200, {"content-type": "application/json"}, b"<html>hello</html>"),
    "not declared json": (200, {"content-type": "text/plain"}, b'{"items": []}'),
    "wrong shape": json_reply(b'{"posts": []}'),
    "bad id": json_reply(b'{"items": [{"post_id": "1; DROP TABLE posts"}]}'),
    "bad cursor": json_reply(b'{"items": [], "cursor": ' + b'"' + b"c" * 600 + b'"}'),
    "error": json_reply(b'{"error": "boom"}', status=500),
}


@pytest.mark.parametrize("kind", list(MALICIOUS))
async def test_a_malicious_or_broken_generator_is_bounded_and_refused(
    world: World, kind: str
) -> None:
    reader = await world.user()

    async def answer(request: StubRequest) -> Reply:
        return MALICIOUS[kind]

    async with stub_server(answer) as stub:
        generator = await register(world, reader, stub.url())
        response = await world.client.get(
            f"/v1/generators/{generator['id']}/items", headers=reader.auth
        )
    assert response.status_code == 502, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert len(stub.requests) == 1  # a redirect is not followed


@pytest.mark.parametrize(
    "uri",
    [
        "http://10.0.0.1/feed",
        "http://192.168.1.10/feed",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/feed",
        "http://[::ffff:10.0.0.1]/feed",
        "http://0.0.0.0/feed",
        "http://224.0.0.1/feed",
        "ftp://127.0.0.1/feed",
        "http://user:pass@127.0.0.1/feed",
    ],
)
async def test_ssrf_targets_are_refused_at_registration(world: World, uri: str) -> None:
    alice = await world.user()
    response = await world.client.post(
        "/v1/generators", json={"uri": uri, "name": "G"}, headers=alice.auth
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"


async def test_feedback_goes_to_generators_that_asked_for_it_signed(world: World) -> None:
    reader = await world.user()
    post_id = await world.post(reader)

    async def ok(request: StubRequest) -> Reply:
        return json_reply(b"{}")

    async with stub_server(ok) as stub:
        asking = await register(world, reader, stub.url("/a"), feedback=True)
        quiet = await register(world, reader, stub.url("/b"))
        body = {"post_id": post_id, "kind": "less_like_this"}
        sent = await world.client.post(
            f"/v1/generators/{asking['id']}/feedback", json=body, headers=reader.auth
        )
        not_sent = await world.client.post(
            f"/v1/generators/{quiet['id']}/feedback", json=body, headers=reader.auth
        )
    assert (sent.status_code, sent.json(), not_sent.json()) == (
        202,
        {"sent": True},
        {"sent": False},
    )
    [request] = stub.requests
    assert (request.method, request.path) == ("POST", "/a")
    assert request.headers["x-feedloom-signature"].startswith("v1=")
    assert b"less_like_this" in request.body


async def test_a_generator_cursor_that_is_not_ours_is_400(world: World) -> None:
    reader = await world.user()
    generator = await register(world, reader, "http://127.0.0.1:9/g")
    response = await world.client.get(
        f"/v1/generators/{generator['id']}/items", params={"cursor": "k123"}, headers=reader.auth
    )
    assert response.status_code == 400
