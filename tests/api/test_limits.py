"""GET /v1/limits: this deployment's limits, from Settings, without signing in."""

from __future__ import annotations

from tests.world import World


async def test_the_limits_are_the_settings_and_need_no_session(world: World) -> None:
    response = await world.client.get("/v1/limits")
    assert response.status_code == 200
    settings = world.feedloom.settings
    assert response.json() == {
        "post_max_chars": settings.post_max_chars,
        "comment_max_chars": settings.comment_max_chars,
        "bio_max_chars": 300,
        "media_per_post": settings.media_per_post,
        "media_max_bytes": settings.media_max_bytes,
        "media_types": ["image/gif", "image/jpeg", "image/png", "image/webp"],
    }


async def test_a_post_one_character_over_the_limit_is_refused(world: World) -> None:
    alice = await world.user()
    limit = (await world.client.get("/v1/limits")).json()["post_max_chars"]
    refused = await world.client.post(
        "/v1/posts", json={"text": "x" * (limit + 1)}, headers=alice.auth
    )
    assert refused.status_code == 422
    accepted = await world.client.post("/v1/posts", json={"text": "x" * limit}, headers=alice.auth)
    assert accepted.status_code == 201
