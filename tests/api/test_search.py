"""GET /v1/search on every backend: posts a reader may see (visibility, blocks, mutes,
deletes and edits at once), any language, both orders, people by the words of their
names, bounded input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.world import User, World


async def search(world: World, reader: User, q: str, **params: Any) -> dict[str, Any]:
    response = await world.client.get("/v1/search", params={"q": q, **params}, headers=reader.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def found(world: World, reader: User, q: str, **params: Any) -> list[str]:
    body = await search(world, reader, q, **params)
    assert body["type"] == params.get("type", "posts")
    key = {"posts": "post_id", "people": "id", "tags": "name"}[body["type"]]
    return [item[key] for item in body["items"]]


async def test_posts_are_found_by_their_words_in_any_language(world: World) -> None:
    kim, reader = await world.user(), await world.user()
    bengali = await world.post(kim, "রাজশাহী শহরে আমের মেলা")
    french = await world.post(kim, "Le Café de Flore, à Paris")
    await world.post(kim, "nothing to see")
    assert await found(world, reader, "রাজশাহী") == [bengali]
    assert await found(world, reader, "cafe PARIS") == [french]
    assert await found(world, reader, "café") == [french]
    item = (await search(world, reader, "flore"))["items"][0]
    assert item["text"] == "Le Café de Flore, à Paris" and item["author"]["id"] == kim.id


async def test_a_followers_only_post_is_found_by_followers_and_the_author_only(
    world: World,
) -> None:
    kim, follower, stranger = [await world.user() for _ in range(3)]
    await world.follow(follower, kim)
    private = await world.post(kim, "secret lanterns", visibility="followers")
    public = await world.post(kim, "public lanterns")
    assert await found(world, stranger, "lanterns") == [public]
    assert await found(world, follower, "lanterns") == [public, private]
    assert await found(world, kim, "lanterns") == [public, private]


async def test_deleted_posts_and_blocked_or_muted_authors_are_left_out_at_once(
    world: World,
) -> None:
    reader, kim, blocker, muted = [await world.user() for _ in range(4)]
    kept = await world.post(kim, "meadow one")
    gone = await world.post(kim, "meadow two")
    await world.post(blocker, "meadow three")
    await world.post(muted, "meadow four")
    assert len(await found(world, reader, "meadow")) == 4
    deleted = await world.client.delete(f"/v1/posts/{gone}", headers=kim.auth)
    assert deleted.status_code == 204
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocker.auth)
    await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    assert await found(world, reader, "meadow") == [kept]


async def test_pages_follow_the_cursor_in_both_orders_without_repeats(world: World) -> None:
    kim, reader = await world.user(), await world.user()
    posts = [await world.post(kim, f"harbour {n}") for n in range(5)]
    best = await world.post(kim, "harbour harbour harbour, the harbour")
    for order in ("newest", "relevance"):
        seen: list[str] = []
        cursor = None
        while True:
            params: dict[str, Any] = {"limit": 2, "order": order}
            if cursor:
                params["cursor"] = cursor
            body = await search(world, reader, "harbour", **params)
            seen += [item["post_id"] for item in body["items"]]
            cursor = body["next_cursor"]
            if cursor is None:
                break
        assert sorted(seen) == sorted([*posts, best]), order
        assert seen[0] == best  # newest, and the most relevant
    newest = await found(world, reader, "harbour", limit=3)
    assert newest == [best, posts[4], posts[3]]


async def test_people_are_found_by_any_word_of_their_names_exact_username_first(
    world: World,
) -> None:
    reader = await world.user()
    alice = await world.client.post(
        "/v1/accounts",
        json={"username": "alice_w", "password": "correct horse", "display_name": "Alice Wonder"},
    )
    wonder = await world.user("wonder")
    ids = await found(world, reader, "Wonder", type="people")
    assert ids == [wonder.id, alice.json()["id"]]
    assert await found(world, reader, "won ali", type="people") == [alice.json()["id"]]
    legacy = await world.client.get("/v1/users/search", params={"q": "Wonder"}, headers=reader.auth)
    assert [person["id"] for person in legacy.json()["items"]] == ids  # one code path


@pytest.mark.parametrize(
    "params",
    [
        {"q": ""},
        {"q": "x" * 201},
        {"q": "!!! ???"},
        {"q": "a", "type": "songs"},
        {"q": "a", "order": "loudest"},
        {"q": "a", "limit": 41},
        {},
    ],
    ids=["empty", "too long", "no word", "type", "order", "limit", "no q"],
)
async def test_bad_queries_are_422_problems(world: World, params: dict[str, Any]) -> None:
    reader = await world.user()
    response = await world.client.get("/v1/search", params=params, headers=reader.auth)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"


async def test_a_10_kb_query_is_refused(world: World) -> None:
    reader = await world.user()
    response = await world.client.get("/v1/search", params={"q": "a" * 10_000}, headers=reader.auth)
    assert response.status_code in (414, 422, 431)
    assert response.headers["content-type"] == "application/problem+json"


async def test_a_cursor_of_another_kind_or_order_is_400(world: World) -> None:
    kim, reader = await world.user(), await world.user()
    for n in range(3):
        await world.post(kim, f"pebble {n}")
    page = await search(world, reader, "pebble", limit=1)
    for params in ({"order": "relevance"}, {"type": "people"}):
        response = await world.client.get(
            "/v1/search",
            params={"q": "pebble", "cursor": page["next_cursor"], **params},
            headers=reader.auth,
        )
        assert response.status_code == 400, params


async def test_tags_are_found_by_prefix_most_used_first(world: World) -> None:
    kim, reader = await world.user(), await world.user()
    await world.post(kim, "A #Café with #cafeteria food")
    await world.post(kim, "Another #café, #CAFÉ again")
    await world.post(kim, "#রাজশাহী mangoes")
    body = await search(world, reader, "#caf", type="tags")
    assert [(tag["name"], tag["posts_count"]) for tag in body["items"]] == [
        ("café", 2),
        ("cafeteria", 1),
    ]
    bengali = await search(world, reader, "রাজ", type="tags")
    assert [tag["name"] for tag in bengali["items"]] == ["রাজশাহী"]
    first = await search(world, reader, "caf", type="tags", limit=1)
    rest = await search(world, reader, "caf", type="tags", cursor=first["next_cursor"])
    assert [tag["name"] for tag in first["items"] + rest["items"]] == ["café", "cafeteria"]
    assert (await search(world, reader, "12", type="tags"))["items"] == []  # no tag is digits
