"""Saved feeds (the same pipeline as home, with sources and filters), pinning and order,
and muted words (hidden in every feed and thread, never counted as viewed)."""

from __future__ import annotations

from typing import Any

from tests.images import png
from tests.world import User, World


async def save(world: World, owner: User, **body: Any) -> dict[str, Any]:
    response = await world.client.post("/v1/feeds", json={"name": "F", **body}, headers=owner.auth)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def items(world: World, reader: User, feed_id: str, **params: Any) -> list[str]:
    response = await world.client.get(
        f"/v1/feeds/{feed_id}/items", params=params, headers=reader.auth
    )
    assert response.status_code == 200, response.text
    return [item["post_id"] for item in response.json()["items"]]


async def image_post(world: World, author: User, text: str) -> str:
    ticket = await world.client.post(
        "/v1/media",
        json={"content_type": "image/png", "width": 8, "height": 8},
        headers=author.auth,
    )
    await world.client.put(ticket.json()["upload_url"], content=png(8, 8), headers=author.auth)
    return await world.post(author, text, media_ids=[ticket.json()["media_id"]])


async def test_the_home_definition_reads_as_the_home_feed(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(alice, bob)
    for n in range(5):
        await world.post(bob, f"post {n}")
    await world.post(alice, "mine")
    await world.settle()
    feed = await save(world, alice, sources=["home"])
    assert feed["sources"] == ["home"] and feed["order"] is None
    assert await items(world, alice, feed["id"]) == await world.feed_ids(alice)
    page = await world.client.get(
        f"/v1/feeds/{feed['id']}/items", params={"limit": 2}, headers=alice.auth
    )
    rest = await items(world, alice, feed["id"], cursor=page.json()["next_cursor"], limit=10)
    assert [i["post_id"] for i in page.json()["items"]] + rest == await world.feed_ids(alice)


async def test_filters_keep_media_drop_replies_and_reposts(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(alice, bob)
    plain = await world.post(bob, "plain")
    photo = await image_post(world, bob, "photo")
    reply = await world.post(bob, "a reply", in_reply_to=plain)
    repost = await world.client.put(f"/v1/posts/{plain}/repost", headers=bob.auth)
    assert repost.status_code == 200
    await world.settle()
    media = await save(world, alice, sources=["home"], filters={"media_only": True})
    assert await items(world, alice, media["id"]) == [photo]
    calm = await save(
        world, alice, sources=["home"], filters={"no_replies": True, "no_reposts": True}
    )
    assert reply not in await items(world, alice, calm["id"])
    assert set(await items(world, alice, calm["id"])) == {photo, plain}
    words = await save(world, alice, sources=["home"], filters={"muted_words": ["PHOTO"]})
    assert photo not in await items(world, alice, words["id"])


async def test_list_and_author_sources_merge_and_an_author_need_not_be_followed(
    world: World,
) -> None:
    alice, bob, carol, dave = [await world.user() for _ in range(4)]
    await world.follow(alice, bob)
    await world.follow(alice, carol)
    made = await world.client.post(
        "/v1/lists", json={"title": "L", "exclusive": True}, headers=alice.auth
    )
    list_id = made.json()["id"]
    await world.client.put(f"/v1/lists/{list_id}/members/{bob.id}", headers=alice.auth)
    bob_post, carol_post, dave_post = (
        await world.post(bob),
        await world.post(carol),
        await world.post(dave),
    )
    await world.settle()
    feed = await save(world, alice, sources=[f"list:{list_id}", f"author:{dave.id}"])
    assert await items(world, alice, feed["id"]) == [dave_post, bob_post]
    # home + the exclusive list: its members come back in this feed.
    both = await save(world, alice, sources=["home", f"list:{list_id}"])
    assert await items(world, alice, both["id"]) == [carol_post, bob_post]
    assert await world.feed_ids(alice) == [carol_post]


async def test_a_tag_source_reads_anyones_public_posts_with_the_tag(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    tagged = await world.post(bob, "Morning at the #Harbour")
    await world.post(bob, "no tag here")
    private = await world.post(carol, "#harbour for followers", visibility="followers")
    await world.client.put(f"/v1/users/{alice.id}/block", headers=carol.auth)
    blocked = await world.post(carol, "#harbour again")
    await world.settle()
    feed = await save(world, alice, sources=["tag:#HARBOUR"])
    assert feed["sources"] == ["tag:harbour"]
    found = await items(world, alice, feed["id"])
    assert found == [tagged]
    assert private not in found and blocked not in found


async def test_bad_definitions_are_422_and_save_nothing(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    others = (await world.client.post("/v1/lists", json={"title": "B"}, headers=bob.auth)).json()
    bad: list[dict[str, Any]] = [
        {"sources": []},
        {"sources": ["everything"]},
        {"sources": ["list:abc"]},
        {"sources": ["list:99999999999999999999"]},  # past any ID
        {"sources": ["author:9223372036854775808"]},
        {"sources": ["home", "home"]},
        {"sources": ["home"], "order": "random"},
        {"sources": ["home"], "filters": {"languages": ["en"]}},
        {"sources": ["home"], "filters": {"muted_words": [" "]}},
        {"sources": ["home"], "filters": {"unknown": True}},
    ]
    for body in bad:
        response = await world.client.post(
            "/v1/feeds", json={"name": "x", **body}, headers=alice.auth
        )
        assert response.status_code == 422, (body, response.text)
        assert response.headers["content-type"] == "application/problem+json"
    naming_nothing: list[str] = [
        "tag:#",
        "tag:2026",  # can be no tag, as in a path
        f"list:{others['id']}",  # someone else's list
        "author:12345",  # no such account
        "generator:http://127.0.0.1:9/nothing",  # not registered
    ]
    for source in naming_nothing:
        response = await world.client.post(
            "/v1/feeds", json={"name": "x", "sources": [source]}, headers=alice.auth
        )
        assert response.status_code == 404, (source, response.text)
    assert (await world.client.get("/v1/me/feeds", headers=alice.auth)).json() == {"items": []}


async def test_saved_feeds_are_pinned_and_ordered_and_private(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    first, second = (
        await save(world, alice, sources=["home"]),
        await save(world, alice, sources=["home"]),
    )
    order = {"feeds": [{"id": second["id"], "pinned": True}, {"id": first["id"]}]}
    arranged = await world.client.put("/v1/me/feeds", json=order, headers=alice.auth)
    assert [(f["id"], f["pinned"]) for f in arranged.json()["items"]] == [
        (second["id"], True),
        (first["id"], False),
    ]
    again = await world.client.get("/v1/me/feeds", headers=alice.auth)
    assert again.json() == arranged.json()
    huge = {"feeds": [{"id": "99999999999999999999"}]}
    assert (
        await world.client.put("/v1/me/feeds", json=huge, headers=alice.auth)
    ).status_code == 422
    partial = await world.client.put(
        "/v1/me/feeds", json={"feeds": [{"id": first["id"]}]}, headers=alice.auth
    )
    assert partial.status_code == 409  # not every saved feed of hers
    assert (await world.client.get(f"/v1/feeds/{first['id']}", headers=bob.auth)).status_code == 404
    assert (
        await world.client.get(f"/v1/feeds/{first['id']}/items", headers=bob.auth)
    ).status_code == 404
    assert (
        await world.client.delete(f"/v1/feeds/{first['id']}", headers=alice.auth)
    ).status_code == 204
    assert [
        f["id"]
        for f in (await world.client.get("/v1/me/feeds", headers=alice.auth)).json()["items"]
    ] == [second["id"]]


async def test_a_muted_word_hides_a_post_in_every_feed_and_thread_and_it_is_not_viewed(
    world: World,
) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.follow(carol, bob)
    root = await world.post(bob, "a thread")
    spoiler = await world.post(bob, "The ending: SPOILERS ahead", in_reply_to=root)
    clean = await world.post(bob, "spoilersport is one word")
    await world.settle()
    put = await world.client.put(
        "/v1/me/muted_words", json={"words": ["Spoilers", "spoilers"]}, headers=alice.auth
    )
    assert put.json() == {"words": ["spoilers"]}
    assert spoiler not in await world.feed_ids(alice)
    assert clean in await world.feed_ids(alice)
    profile = await world.client.get(f"/v1/users/{bob.id}/posts", headers=alice.auth)
    assert spoiler not in [i["post_id"] for i in profile.json()["items"]]
    context = await world.client.get(f"/v1/posts/{root}/context", headers=alice.auth)
    assert spoiler not in [i["post_id"] for i in context.json()["descendants"]]
    made = await world.client.post(
        "/v1/lists", json={"title": "L", "replies": "followed"}, headers=alice.auth
    )
    await world.client.put(f"/v1/lists/{made.json()['id']}/members/{bob.id}", headers=alice.auth)
    listed = await world.client.get(f"/v1/lists/{made.json()['id']}/feed", headers=alice.auth)
    assert spoiler not in [i["post_id"] for i in listed.json()["items"]]
    # Carol muted nothing: she sees it, and she alone counts as its viewer.
    assert spoiler in await world.feed_ids(carol)
    seen = await world.client.get(f"/v1/posts/{spoiler}", headers=carol.auth)
    assert seen.json()["views"] == 1
    # Unmuting counts on the next read.
    await world.client.put("/v1/me/muted_words", json={"words": []}, headers=alice.auth)
    assert spoiler in await world.feed_ids(alice)


async def test_muted_words_are_limited_and_checked(world: World) -> None:
    alice = await world.user()
    too_many = await world.client.put(
        "/v1/me/muted_words", json={"words": [f"w{n}" for n in range(6)]}, headers=alice.auth
    )
    assert too_many.status_code == 422
    empty = await world.client.put("/v1/me/muted_words", json={"words": [""]}, headers=alice.auth)
    assert empty.status_code == 422
    assert (await world.client.get("/v1/me/muted_words", headers=alice.auth)).json() == {
        "words": []
    }


async def test_a_ranked_saved_feed_ranks_its_own_sources(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.follow(alice, carol)
    bob_posts = [await world.post(bob, f"bob {n}") for n in range(3)]
    await world.post(carol, "not in the list")
    await world.settle()
    made = await world.client.post("/v1/lists", json={"title": "L"}, headers=alice.auth)
    await world.client.put(f"/v1/lists/{made.json()['id']}/members/{bob.id}", headers=alice.auth)
    feed = await save(world, alice, sources=[f"list:{made.json()['id']}"], order="ranked")
    page = await world.client.get(f"/v1/feeds/{feed['id']}/items", headers=alice.auth)
    assert page.json()["order"] == "ranked"
    assert sorted(i["post_id"] for i in page.json()["items"]) == sorted(bob_posts)
