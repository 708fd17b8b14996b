"""Hashtags (issue 34, part 3): tag pages, following tags, the home feed's pulled tag
source, trending tags; on every backend."""

from __future__ import annotations

from typing import Any

from tests.world import User, World


async def _get(world: World, url: str, user: User, **params: Any) -> dict[str, Any]:
    response = await world.client.get(url, headers=user.auth, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _tag_page(world: World, tag: str, user: User, **params: Any) -> list[str]:
    page = await _get(world, f"/v1/tags/{tag}/posts", user, **params)
    return [item["post_id"] for item in page["items"]]


async def test_tags_are_one_whatever_their_case_or_unicode_form(world: World) -> None:
    alice = await world.user()
    first = await world.post(alice, "#Café au lait")
    second = await world.post(alice, "un #café, et un #CAFE\u0301")
    tag = await _get(world, "/v1/tags/CAFÉ", alice)
    assert tag == {"name": "café", "posts_count": 2, "followed_by_me": False}
    assert await _tag_page(world, "Cafe\u0301", alice) == [second, first]


async def test_a_bengali_tag_has_its_page(world: World) -> None:
    alice = await world.user()
    post_id = await world.post(alice, "বৃষ্টি #রাজশাহী")
    assert (await _get(world, "/v1/tags/রাজশাহী", alice))["posts_count"] == 1
    assert await _tag_page(world, "রাজশাহী", alice) == [post_id]


async def test_a_never_used_tag_has_no_posts_and_what_is_no_tag_is_404(world: World) -> None:
    alice = await world.user()
    assert await _get(world, "/v1/tags/unused", alice) == {
        "name": "unused",
        "posts_count": 0,
        "followed_by_me": False,
    }
    assert await _tag_page(world, "unused", alice) == []
    for path in ("/v1/tags/2026", "/v1/tags/a-b/posts", "/v1/tags/%23x"):
        response = await world.client.get(path, headers=alice.auth)
        assert response.status_code == 404, (path, response.text)
        assert response.headers["content-type"] == "application/problem+json"
    follow = await world.client.put("/v1/tags/x%20y/follow", headers=alice.auth)
    assert follow.status_code == 404
    assert (await _get(world, "/v1/me/tags", alice))["items"] == []


async def test_a_tag_page_pages_newest_first_with_a_keyset_cursor(world: World) -> None:
    alice = await world.user()
    posted = [await world.post(alice, f"#paging {n}") for n in range(5)]
    first = await _get(world, "/v1/tags/paging/posts", alice, limit=2)
    assert [item["post_id"] for item in first["items"]] == posted[:2:-1][:2]
    seen = [item["post_id"] for item in first["items"]]
    cursor = first["next_cursor"]
    while cursor:
        page = await _get(world, "/v1/tags/paging/posts", alice, limit=2, cursor=cursor)
        seen += [item["post_id"] for item in page["items"]]
        cursor = page["next_cursor"]
    assert seen == posted[::-1]
    bad = await world.client.get("/v1/tags/paging/posts?cursor=zzz", headers=alice.auth)
    assert bad.status_code == 400
    too_many = await world.client.get("/v1/tags/paging/posts?limit=0", headers=alice.auth)
    assert too_many.status_code == 422


async def test_a_tag_page_applies_the_feeds_read_time_filters(world: World) -> None:
    reader, blocker, muted, plain = [await world.user() for _ in range(4)]
    await world.post(blocker, "#filters blocked")
    await world.post(muted, "#filters muted")
    private = await world.post(plain, "#filters private", visibility="followers")
    deleted = await world.post(plain, "#filters deleted")
    shown = await world.post(plain, "#filters shown")
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocker.auth)
    await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    await world.client.delete(f"/v1/posts/{deleted}", headers=plain.auth)
    assert await _tag_page(world, "filters", reader) == [shown]
    assert private not in await _tag_page(world, "filters", plain)
    assert (await _get(world, "/v1/tags/filters", reader))["posts_count"] == 3


async def test_followed_tags_join_the_home_feed_with_a_reason_until_unfollowed(
    world: World,
) -> None:
    reader, friend, stranger = [await world.user() for _ in range(3)]
    await world.follow(reader, friend)
    follow = await world.client.put("/v1/tags/Café/follow", headers=reader.auth)
    assert follow.json() == {"changed": True}
    again = await world.client.put("/v1/tags/café/follow", headers=reader.auth)
    assert again.json() == {"changed": False}
    assert (await _get(world, "/v1/tags/café", reader))["followed_by_me"] is True
    mine = await _get(world, "/v1/me/tags", reader)
    assert mine["items"] == [{"name": "café", "posts_count": 0, "followed_by_me": True}]

    tagged = await world.post(stranger, "un #CAFÉ")
    private = await world.post(stranger, "#café entre nous", visibility="followers")
    untagged = await world.post(stranger, "no tag")
    by_friend = await world.post(friend, "#café too")
    await world.settle()
    items = (await world.feed(reader))["items"]
    assert [item["post_id"] for item in items] == [by_friend, tagged]
    assert items[0]["reason"] is None  # a followed account's post: there anyway
    assert items[1]["reason"] == {"tag": "café"}
    shown = [item["post_id"] for item in items]
    assert private not in shown and untagged not in shown
    ranked = (await world.feed(reader, order="ranked"))["items"]
    assert {item["post_id"]: item["reason"] for item in ranked}[tagged] == {"tag": "café"}

    gone = await world.client.delete("/v1/tags/café/follow", headers=reader.auth)
    assert gone.json() == {"changed": True}
    assert await world.feed_ids(reader) == [by_friend]
    assert (await _get(world, "/v1/me/tags", reader))["items"] == []
    again_gone = await world.client.delete("/v1/tags/café/follow", headers=reader.auth)
    assert again_gone.json() == {"changed": False}


async def test_a_followed_tag_pages_through_the_feed_once_each(world: World) -> None:
    reader, stranger = await world.user(), await world.user()
    await world.client.put("/v1/tags/scroll/follow", headers=reader.auth)
    posted = [await world.post(stranger, f"#scroll {n}") for n in range(7)]
    await world.settle()
    assert await world.all_feed_ids(reader, limit=3) == posted[::-1]


async def test_a_tag_followed_by_a_blocked_account_brings_nothing_of_it(world: World) -> None:
    reader, blocker = await world.user(), await world.user()
    await world.client.put("/v1/tags/quiet/follow", headers=reader.auth)
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocker.auth)
    await world.post(blocker, "#quiet")
    await world.settle()
    assert await world.feed_ids(reader) == []


async def test_trending_tags_count_distinct_authors(world: World) -> None:
    authors = [await world.user() for _ in range(3)]
    for author in authors:
        await world.post(author, "#everyone")
    for n in range(3):
        await world.post(authors[0], f"#flood {n}")
    await world.post(authors[0], "#hidden", visibility="followers")
    page = await _get(world, "/v1/trending/tags", authors[1], window="24h")
    assert page["window"] == "24h"
    found = {item["name"]: item for item in page["items"]}
    assert found["everyone"]["authors"] == 3.0 and found["everyone"]["posts_count"] == 3
    assert found["flood"]["authors"] == 1.0 and found["flood"]["posts_count"] == 3
    assert "hidden" not in found
    assert page["items"][0]["name"] == "everyone"
    bad = await world.client.get("/v1/trending/tags?window=2h", headers=authors[1].auth)
    assert bad.status_code == 422
