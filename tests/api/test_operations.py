"""Health, readiness, metrics, Server-Timing, OpenAPI."""

from __future__ import annotations

import httpx

from tests.world import World


async def test_health_and_readiness_answer(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "ready"


async def test_metrics_expose_the_feed_dashboards(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    await world.post(alice)
    await world.settle()
    await world.feed(bob)
    text = (await world.client.get("/metrics")).text
    assert "feedloom_fanout_timeline_writes_total 1.0" in text
    for name in (
        "feedloom_fanout_lag_seconds_bucket",
        "feedloom_feed_request_seconds_bucket",
        "feedloom_timeline_rebuilds_total",
        "feedloom_hydration_cache_misses_total",
        "feedloom_outbox_pending",
    ):
        assert name in text, name


async def test_filtered_items_are_counted_by_reason(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    post_id = await world.post(alice)
    await world.settle()
    await world.client.delete(f"/v1/posts/{post_id}", headers=alice.auth)
    await world.feed(bob)
    text = (await world.client.get("/metrics")).text
    assert 'feedloom_feed_filtered_items_total{reason="deleted"} 1.0' in text


async def test_every_feed_response_carries_server_timing(world: World) -> None:
    alice = await world.user()
    response = await world.client.get("/v1/feed", headers=alice.auth)
    timing = response.headers["server-timing"]
    for stage in ("viewer", "candidates", "hydrate", "total"):
        assert f"{stage};dur=" in timing


async def test_the_openapi_document_lists_every_endpoint(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in (
        "/v1/accounts",
        "/v1/sessions",
        "/v1/me",
        "/v1/posts",
        "/v1/posts/{post_id}",
        "/v1/posts/{post_id}/like",
        "/v1/posts/{post_id}/comments",
        "/v1/users/{user_id}",
        "/v1/users/{user_id}/posts",
        "/v1/users/{user_id}/follow",
        "/v1/users/{user_id}/block",
        "/v1/users/{user_id}/mute",
        "/v1/feed",
        "/v1/media",
    ):
        assert path in paths, path
    assert (await client.get("/docs")).status_code == 200
