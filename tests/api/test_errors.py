"""Bad input gets a clear status and a problem+json body; never a 500."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.world import World


async def test_a_malformed_cursor_is_a_400(world: World) -> None:
    alice = await world.user()
    for cursor in ("zzz", "eyJiIjoxfQ", "x" * 100):
        response = await world.client.get("/v1/feed", params={"cursor": cursor}, headers=alice.auth)
        assert response.status_code == 400
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["type"].endswith("/bad-cursor")


@pytest.mark.parametrize("limit", ["0", "101", "-5", "ten"])
async def test_a_limit_outside_1_to_100_is_refused(world: World, limit: str) -> None:
    alice = await world.user()
    response = await world.client.get("/v1/feed", params={"limit": limit}, headers=alice.auth)
    assert response.status_code == 422
    assert response.json()["status"] == 422


async def test_malformed_json_is_a_400(world: World) -> None:
    alice = await world.user()
    response = await world.client.post(
        "/v1/posts",
        content=b"{not json",
        headers={**alice.auth, "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["type"].endswith("/malformed-json")


async def test_an_oversized_body_is_a_413_and_writes_nothing(world: World) -> None:
    alice = await world.user()
    huge = "x" * (world.feedloom.settings.max_body_bytes + 1)
    response = await world.client.post("/v1/posts", json={"text": huge}, headers=alice.auth)
    assert response.status_code == 413
    assert response.json()["type"].endswith("/payload-too-large")
    assert await world.feed_ids(alice) == []


async def test_posting_too_fast_is_a_429_with_retry_after(world: World) -> None:
    alice = await world.user()
    publish = world.feedloom.services.publish
    publish.limits = replace(publish.limits, per_minute=2)
    for _ in range(2):
        await world.post(alice)
    response = await world.client.post("/v1/posts", json={"text": "3rd"}, headers=alice.auth)
    assert response.status_code == 429
    assert int(response.headers["retry-after"]) >= 1
    assert len(await world.feed_ids(alice)) == 2


async def test_unknown_routes_and_ids_are_404_problems(world: World) -> None:
    alice = await world.user()
    for path in ("/v1/nope", "/v1/posts/abc", "/v1/posts/999999999999", "/v1/users/0"):
        response = await world.client.get(path, headers=alice.auth)
        assert response.status_code == 404, path
        assert response.headers["content-type"] == "application/problem+json"


async def test_a_wrong_method_is_a_405_problem(world: World) -> None:
    response = await world.client.patch("/v1/feed")
    assert response.status_code == 405
    assert response.json()["status"] == 405


async def test_a_405_names_every_method_the_path_serves(world: World) -> None:
    """GET and PATCH /v1/me are two routes; Allow names both, not the first one."""
    response = await world.client.delete("/v1/me")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, PATCH"
