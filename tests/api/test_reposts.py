"""Reposts over /v1, on every backend: PUT|DELETE /v1/posts/{id}/repost, the repost's
feed entry, no double posts across a scroll, the read-time rules (unrepost, delete,
block, own posts, `reposts: false`), and the counts on every post view."""

from __future__ import annotations

from typing import Any

import httpx

from tests.world import User, World


async def repost(world: World, user: User, post_id: str) -> httpx.Response:
    return await world.client.put(f"/v1/posts/{post_id}/repost", headers=user.auth)


async def unrepost(world: World, user: User, post_id: str) -> httpx.Response:
    return await world.client.delete(f"/v1/posts/{post_id}/repost", headers=user.auth)


async def items(world: World, reader: User, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (await world.feed(reader, **params))["items"]
    return found


async def test_a_repost_reaches_the_reposters_followers_as_the_original_reposted_by_them(
    world: World,
) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, bob)
    original = await world.post(alice, "worth sharing")
    first = await repost(world, bob, original)
    assert first.status_code == 200 and first.json() == {"changed": True}
    again = await repost(world, bob, original)
    assert again.json() == {"changed": False}
    await world.settle()
    [item] = await items(world, reader)
    assert item["post_id"] == original
    assert item["author"]["id"] == alice.id
    assert item["text"] == "worth sharing"
    assert item["reposted_by"] == {"id": bob.id, "name": bob.username}
    assert item["repost_id"] not in (None, original)
    assert item["reposts"] == 1
    assert item["reposted_by_me"] is False
    [own] = await items(world, bob)
    assert own["reposted_by_me"] is True and own["repost_id"] == item["repost_id"]


async def test_a_repost_by_a_big_account_is_pulled_and_one_by_a_mid_sized_one_takes_the_bulk_lane(
    world: World,
) -> None:
    # Tests shrink the thresholds: more than 2 followers is bulk, more than 4 is pulled.
    alice, mid, big = await world.user(), await world.user(), await world.user()
    readers = [await world.user() for _ in range(6)]
    for reader in readers:
        await world.follow(reader, big)
    for reader in readers[:3]:
        await world.follow(reader, mid)
    first, second = await world.post(alice, "one"), await world.post(alice, "two")
    assert (await repost(world, big, first)).json() == {"changed": True}
    assert (await repost(world, mid, second)).json() == {"changed": True}
    await world.settle()
    seen = await items(world, readers[0])
    assert [(i["post_id"], i["reposted_by"]["id"]) for i in seen] == [
        (second, mid.id),
        (first, big.id),
    ]


async def test_the_same_original_is_shown_once_across_the_pages_of_one_scroll(
    world: World,
) -> None:
    alice, reader = await world.user(), await world.user()
    reposters = [await world.user() for _ in range(3)]
    await world.follow(reader, alice)
    for reposter in reposters:
        await world.follow(reader, reposter)
    shared = await world.post(alice, "shared")
    fillers = [await world.post(alice, f"filler {i}") for i in range(45)]
    for reposter in reposters:
        assert (await repost(world, reposter, shared)).json() == {"changed": True}
    await world.settle()
    scrolled = await world.all_feed_ids(reader, limit=4)
    assert scrolled.count(shared) == 1
    assert scrolled[0] == shared  # shown by the newest repost, not again at its own place
    assert set(fillers) <= set(scrolled)
    assert len(scrolled) == len(set(scrolled))


async def test_a_repost_of_a_post_just_below_it_in_the_feed_is_skipped(world: World) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, alice)
    await world.follow(reader, bob)
    fresh = await world.post(alice, "fresh")
    await repost(world, bob, fresh)
    await world.settle()
    [item] = await items(world, reader)
    assert item["post_id"] == fresh and item["reposted_by"] is None


async def test_unrepost_and_deleting_the_original_take_effect_on_the_next_read(
    world: World,
) -> None:
    alice, bob, carol, reader = [await world.user() for _ in range(4)]
    await world.follow(reader, bob)
    await world.follow(reader, carol)
    first, second = await world.post(alice, "one"), await world.post(alice, "two")
    await repost(world, bob, first)
    await repost(world, carol, second)
    await world.settle()
    assert await world.feed_ids(reader) == [second, first]
    gone = await unrepost(world, bob, first)
    assert gone.json() == {"changed": True}
    assert (await unrepost(world, bob, first)).json() == {"changed": False}
    assert await world.feed_ids(reader) == [second]
    deleted = await world.client.delete(f"/v1/posts/{second}", headers=alice.auth)
    assert deleted.status_code == 204
    assert await world.feed_ids(reader) == []
    view = (await world.client.get(f"/v1/posts/{first}", headers=reader.auth)).json()
    assert view["reposts"] == 0


async def test_a_block_of_the_reposter_or_of_the_original_author_hides_the_repost(
    world: World,
) -> None:
    alice, bob, carol, reader = [await world.user() for _ in range(4)]
    await world.follow(reader, bob)
    await world.follow(reader, carol)
    by_bob = await world.post(alice, "one")
    by_carol = await world.post(carol, "two")  # carol's own post, reposted by bob
    await repost(world, bob, by_bob)
    await repost(world, bob, by_carol)
    await world.settle()
    assert set(await world.feed_ids(reader)) == {by_bob, by_carol}
    await world.client.put(f"/v1/users/{alice.id}/block", headers=reader.auth)
    assert await world.feed_ids(reader) == [by_carol]
    await world.client.put(f"/v1/users/{bob.id}/block", headers=reader.auth)
    [left] = await items(world, reader)
    assert left["post_id"] == by_carol and left["reposted_by"] is None


async def test_your_own_post_reposted_by_someone_you_follow_does_not_come_back(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(alice, bob)
    mine = await world.post(alice, "mine")
    await world.post(alice, "newer")
    await repost(world, bob, mine)
    await world.settle()
    feed = await items(world, alice)
    assert [item["reposted_by"] for item in feed] == [None, None]
    view = (await world.client.get(f"/v1/posts/{mine}", headers=alice.auth)).json()
    assert view["reposts"] == 1


async def test_following_with_reposts_off_keeps_their_posts_and_drops_their_reposts(
    world: World,
) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, bob)
    own = await world.post(bob, "bob's own")
    shared = await world.post(alice, "shared")
    await repost(world, bob, shared)
    await world.settle()
    assert await world.feed_ids(reader) == [shared, own]
    off = await world.client.put(
        f"/v1/users/{bob.id}/follow", json={"reposts": False}, headers=reader.auth
    )
    assert off.json() == {"changed": True}
    again = await world.client.put(
        f"/v1/users/{bob.id}/follow", json={"reposts": False}, headers=reader.auth
    )
    assert again.json() == {"changed": False}
    assert await world.feed_ids(reader) == [own]
    on = await world.client.put(
        f"/v1/users/{bob.id}/follow", json={"reposts": True}, headers=reader.auth
    )
    assert on.json() == {"changed": True}
    assert await world.feed_ids(reader) == [shared, own]


async def test_reposting_a_followers_only_post_is_403_and_writes_nothing(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    private = await world.post(alice, "friends only", visibility="followers")
    for who in (bob, alice):
        refused = await repost(world, who, private)
        assert refused.status_code == 403
        assert refused.headers["content-type"] == "application/problem+json"
        assert "followers-only" in refused.json()["detail"]
    view = (await world.client.get(f"/v1/posts/{private}", headers=bob.auth)).json()
    assert view["reposts"] == 0 and view["reposted_by_me"] is False
    # A path ID no post can have is a post that is not there, as on every /v1 path.
    for unknown in ("9223372036854775807", "9223372036854775808"):
        assert (await repost(world, bob, unknown)).status_code == 404


async def test_reposting_a_repost_reposts_its_original(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(carol, bob)
    original = await world.post(alice, "original")
    await repost(world, bob, original)
    await world.settle()
    [item] = await items(world, carol)
    assert (await repost(world, carol, item["repost_id"])).json() == {"changed": True}
    assert (await repost(world, carol, original)).json() == {"changed": False}
    view = (await world.client.get(f"/v1/posts/{original}", headers=carol.auth)).json()
    assert view["reposts"] == 2 and view["reposted_by_me"] is True


async def test_replying_to_a_repost_replies_to_its_original(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(carol, bob)
    original = await world.post(alice, "original")
    await repost(world, bob, original)
    await world.settle()
    [item] = await items(world, carol)
    answer = await world.post(carol, "re", in_reply_to=item["repost_id"])
    view = (await world.client.get(f"/v1/posts/{answer}", headers=carol.auth)).json()
    assert view["in_reply_to"] == {
        "post_id": original,
        "author": {"id": alice.id, "name": alice.username},
    }
    key = {"Idempotency-Key": "comment-on-a-repost", **carol.auth}
    comments = f"/v1/posts/{item['repost_id']}/comments"
    first = await world.client.post(comments, json={"text": "nice"}, headers=key)
    again = await world.client.post(comments, json={"text": "nice"}, headers=key)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and first.json()["post_id"] == original
    context = await world.client.get(f"/v1/posts/{original}/context", headers=carol.auth)
    assert [d["post_id"] for d in context.json()["descendants"]] == [answer, first.json()["id"]]
    shown = (await world.client.get(f"/v1/posts/{original}", headers=carol.auth)).json()
    assert shown["replies"] == shown["comments"] == 2
