"""Trends, hashtags and search paging on the Mastodon-compatible API: the trending,
TagPages, FollowTags and search use cases of /v1, in Mastodon's shapes, on every
backend."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.api.mastodon.oauth import bearer, token_for
from tests.world import User, World


async def _signed_in(world: World, name: str | None = None) -> tuple[User, dict[str, str]]:
    user = await world.user(name)
    return user, bearer(await token_for(world.client, user))


async def _get(world: World, path: str, auth: dict[str, str], **params: Any) -> httpx.Response:
    response = await world.client.get(path, params=params or None, headers=auth)
    assert response.status_code == 200, response.text
    return response


def _next(response: httpx.Response) -> str | None:
    found = re.search(r'<([^>]+)>; rel="next"', response.headers.get("link", ""))
    return "/" + found.group(1).split("/", 3)[3] if found else None


async def test_trending_statuses_page_by_offset(world: World) -> None:
    author = await world.user()
    _, auth = await _signed_in(world)
    fans = [await world.user() for _ in range(3)]
    posts = [await world.post(author, f"post {n}") for n in range(3)]
    for rank, post_id in enumerate(posts):  # post 0: 3 likes, post 1: 2, post 2: 1
        for fan in fans[: 3 - rank]:
            liked = await world.client.put(f"/v1/posts/{post_id}/like", headers=fan.auth)
            assert liked.status_code == 200, liked.text
    hidden = await world.post(author, "for followers", visibility="followers")
    for fan in fans:
        await world.client.put(f"/v1/posts/{hidden}/like", headers=fan.auth)
    await world.settle()
    first = await _get(world, "/api/v1/trends/statuses", auth, limit=2)
    assert [s["id"] for s in first.json()] == posts[:2]
    assert first.json()[0]["favourites_count"] == 3
    following = _next(first)
    assert following is not None and "offset=2" in following
    second = await _get(world, following, auth)
    assert [s["id"] for s in second.json()] == posts[2:]
    assert _next(second) is None
    assert (await _get(world, "/api/v1/trends/statuses", auth, offset=100)).json() == []


async def test_trending_tags_carry_todays_authors_and_following(world: World) -> None:
    authors = [await world.user() for _ in range(2)]
    reader, auth = await _signed_in(world)
    for author in authors:
        await world.post(author, "#everyone")
    await world.post(authors[0], "#alone")
    await world.client.put("/v1/tags/alone/follow", headers=reader.auth)
    trends = (await _get(world, "/api/v1/trends/tags", auth)).json()
    assert [tag["name"] for tag in trends] == ["everyone", "alone"]
    everyone, alone = trends
    assert everyone["following"] is False and alone["following"] is True
    assert everyone["url"].endswith("/tags/everyone")
    [day] = everyone["history"]
    assert day["accounts"] == day["uses"] == "2" and int(day["day"]) % 86400 == 0
    paged = await _get(world, "/api/v1/trends/tags", auth, limit=1, offset=1)
    assert [tag["name"] for tag in paged.json()] == ["alone"]


async def test_a_tag_is_followed_listed_and_unfollowed(world: World) -> None:
    _, auth = await _signed_in(world)
    tag = await _get(world, "/api/v1/tags/Café", auth)
    assert set(tag.json()) == {"name", "url", "history", "following"}
    assert tag.json()["name"] == "café"  # normalised, as /v1/tags/{tag}
    assert tag.json()["history"] == [] and tag.json()["following"] is False
    for name in ("first", "second", "third"):
        followed = await world.client.post(f"/api/v1/tags/{name}/follow", headers=auth)
        assert followed.status_code == 200, followed.text
        assert followed.json()["name"] == name and followed.json()["following"] is True
    again = await world.client.post("/api/v1/tags/first/follow", headers=auth)
    assert again.json()["following"] is True  # idempotent, as Mastodon's
    page = await _get(world, "/api/v1/followed_tags", auth, limit=2)
    assert [t["name"] for t in page.json()] == ["third", "second"]
    following = _next(page)
    assert following is not None
    rest = await _get(world, following, auth)
    assert [t["name"] for t in rest.json()] == ["first"] and _next(rest) is None
    gone = await world.client.post("/api/v1/tags/second/unfollow", headers=auth)
    assert gone.json() == {**gone.json(), "name": "second", "following": False}
    left = await _get(world, "/api/v1/followed_tags", auth)
    assert [t["name"] for t in left.json()] == ["third", "first"]
    bad = await world.client.get("/api/v1/tags/no%20tag", headers=auth)
    assert bad.status_code == 404 and set(bad.json()) == {"error"}


async def test_search_pages_by_offset_finds_hashtags_and_refuses_account_id(
    world: World,
) -> None:
    alice, auth = await _signed_in(world, "offset_alice")
    for n in range(5):
        await world.client.post(
            "/api/v1/statuses", data={"status": f"walrus {n} #walrus{n}"}, headers=auth
        )
    newest = (await _get(world, "/api/v2/search", auth, q="walrus", type="statuses")).json()
    texts = [s["content"] for s in newest["statuses"]]
    assert len(texts) == 5
    for offset in (0, 2, 4):
        page = await _get(
            world, "/api/v2/search", auth, q="walrus", type="statuses", limit=2, offset=offset
        )
        assert [s["content"] for s in page.json()["statuses"]] == texts[offset : offset + 2]
    await world.client.put("/v1/tags/walrus3/follow", headers=alice.auth)
    tags = (await _get(world, "/api/v2/search", auth, q="#walrus", type="hashtags")).json()
    assert sorted(t["name"] for t in tags["hashtags"]) == [f"walrus{n}" for n in range(5)]
    assert [t["name"] for t in tags["hashtags"] if t["following"]] == ["walrus3"]
    resolved = await _get(world, "/api/v2/search", auth, q="offset_alice", resolve="true")
    assert [a["id"] for a in resolved.json()["accounts"]] == [alice.id]
    refused = await world.client.get(
        "/api/v2/search", params={"q": "walrus", "account_id": alice.id}, headers=auth
    )
    assert refused.status_code == 422 and "account_id" in refused.json()["error"]


async def test_search_following_keeps_the_accounts_followed(world: World) -> None:
    reader, auth = await _signed_in(world)
    followed, other = await world.user("zed_followed"), await world.user("zed_other")
    await world.follow(reader, followed)
    both = await _get(world, "/api/v2/search", auth, q="zed", type="accounts")
    assert {a["id"] for a in both.json()["accounts"]} == {followed.id, other.id}
    mine = await _get(world, "/api/v2/search", auth, q="zed", type="accounts", following="true")
    assert [a["id"] for a in mine.json()["accounts"]] == [followed.id]
