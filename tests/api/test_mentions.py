"""Facets and mentions on post views (issue 34, parts 1 and 2), on every backend."""

from __future__ import annotations

from typing import Any

from tests.world import World


async def _view(world: World, post_id: str, reader: Any) -> dict[str, Any]:
    response = await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _code_points(text: str, facet: dict[str, Any]) -> str:
    return text[facet["start"] : facet["end"]]


async def test_a_post_view_carries_facets_with_code_point_offsets(world: World) -> None:
    alice, kim = await world.user(), await world.user()
    text = f"🎉 hi @{kim.username.upper()} #Café রাজশাহী #রাজশাহী see https://example.com/a."
    post_id = await world.post(alice, text)
    body = await _view(world, post_id, alice)
    assert body["text"] == text
    found = [(f["type"], _code_points(text, f)) for f in body["facets"]]
    assert found == [
        ("mention", f"@{kim.username.upper()}"),
        ("tag", "#Café"),
        ("tag", "#রাজশাহী"),
        ("link", "https://example.com/a"),
    ]
    mention, cafe, bengali, link = body["facets"]
    assert mention["id"] == kim.id and mention["username"] == kim.username
    assert cafe["tag"] == "café" and bengali["tag"] == "রাজশাহী"
    assert link["url"] == "https://example.com/a"
    assert body["mentions"] == [{"id": kim.id, "username": kim.username}]


async def test_facets_travel_with_every_view_of_the_post(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    post_id = await world.post(alice, f"hello @{bob.username} #news")
    await world.settle()
    feed_item = (await world.feed(bob))["items"][0]
    profile_item = (await world.client.get(f"/v1/users/{alice.id}/posts", headers=bob.auth)).json()[
        "items"
    ][0]
    quote_id = await world.post(bob, "this", quote_of=post_id)
    quote = (await _view(world, quote_id, bob))["quote"]
    for view in (feed_item, profile_item, quote):
        assert [f["type"] for f in view["facets"]] == ["mention", "tag"]
        assert view["mentions"] == [{"id": bob.id, "username": bob.username}]


async def test_a_mention_of_an_unknown_name_stays_plain_text(world: World) -> None:
    alice = await world.user()
    post_id = await world.post(alice, "hi @nobody_here_at_all and @x")
    body = await _view(world, post_id, alice)
    assert body["facets"] == [] and body["mentions"] == []
    stored = await world.feedloom.stores.mentions.mentions_in([int(post_id)])
    assert stored == []


async def test_a_mention_of_a_user_who_blocked_the_author_is_dropped_silently(
    world: World,
) -> None:
    alice, kim, lee = await world.user(), await world.user(), await world.user()
    blocked = await world.client.put(f"/v1/users/{alice.id}/block", headers=kim.auth)
    assert blocked.status_code == 200, blocked.text
    response = await world.client.post(
        "/v1/posts", json={"text": f"@{kim.username} @{lee.username}"}, headers=alice.auth
    )
    assert response.status_code == 201
    post_id = response.json()["post_id"]
    body = await _view(world, post_id, alice)
    assert body["mentions"] == [{"id": lee.id, "username": lee.username}]
    assert [f["id"] for f in body["facets"]] == [lee.id]
    stored = await world.feedloom.stores.mentions.mentions_in([int(post_id)])
    assert [m.user_id for m in stored] == [int(lee.id)]


async def test_mentions_are_recorded_durably_with_their_post(world: World) -> None:
    alice, kim = await world.user(), await world.user()
    post_id = await world.post(alice, f"@{kim.username} @{kim.username} twice")
    mentions = world.feedloom.stores.mentions
    stored = await mentions.mentions_in([int(post_id)])
    assert [(m.post_id, m.user_id, m.author_id) for m in stored] == [
        (int(post_id), int(kim.id), int(alice.id))
    ]
    assert [m.post_id for m in await mentions.mentions_of(int(kim.id), None, 10)] == [int(post_id)]
    await world.client.delete(f"/v1/posts/{post_id}", headers=alice.auth)
    assert await mentions.mentions_of(int(kim.id), None, 10) == []


async def test_a_mentioned_non_follower_does_not_get_the_post_in_their_home_feed(
    world: World,
) -> None:
    alice, kim = await world.user(), await world.user()
    post_id = await world.post(alice, f"hey @{kim.username}")
    await world.settle()
    assert post_id not in await world.feed_ids(kim)
    assert (await _view(world, post_id, kim))["mentions"][0]["id"] == kim.id
