"""Replies and threads over /v1, on every backend: the reply rule in home feeds,
`in_reply_to` and `replies` on every post view, the context endpoint, and comments as
direct replies."""

from __future__ import annotations

from typing import Any

from tests.world import User, World


async def reply(world: World, author: User, parent: str, text: str = "re", **body: Any) -> str:
    return await world.post(author, text, in_reply_to=parent, **body)


async def test_a_reply_reaches_followers_who_follow_both_and_the_account_replied_to(
    world: World,
) -> None:
    alice, bob, both, only_bob = [await world.user() for _ in range(4)]
    await world.follow(both, alice)
    for reader in (both, only_bob, alice):
        await world.follow(reader, bob)
    original = await world.post(alice, "question")
    answer = await reply(world, bob, original)
    await world.settle()
    assert answer in await world.feed_ids(both)
    assert answer in await world.feed_ids(alice)  # the account replied to
    assert answer not in await world.feed_ids(only_bob)
    assert answer in await world.feed_ids(bob)  # one's own reply


async def test_a_reply_to_ones_own_post_reaches_every_follower(world: World) -> None:
    bob, reader = await world.user(), await world.user()
    await world.follow(reader, bob)
    first = await world.post(bob, "1/2")
    second = await reply(world, bob, first, "2/2")
    await world.settle()
    assert await world.feed_ids(reader) == [second, first]


async def test_an_unfollow_of_the_account_replied_to_hides_the_reply_on_the_next_read(
    world: World,
) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, alice)
    await world.follow(reader, bob)
    answer = await reply(world, bob, await world.post(alice))
    await world.settle()
    assert answer in await world.feed_ids(reader)
    gone = await world.client.delete(f"/v1/users/{alice.id}/follow", headers=reader.auth)
    assert gone.status_code == 200
    assert answer not in await world.feed_ids(reader)


async def test_every_post_view_names_what_it_replies_to_and_counts_its_replies(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    original = await world.post(alice, "question")
    answer = await reply(world, bob, original)
    await world.settle()
    one = (await world.client.get(f"/v1/posts/{answer}", headers=bob.auth)).json()
    assert one["in_reply_to"] == {
        "post_id": original,
        "author": {"id": alice.id, "name": alice.username},
    }
    parent = (await world.client.get(f"/v1/posts/{original}", headers=bob.auth)).json()
    assert parent["in_reply_to"] is None
    assert parent["replies"] == parent["comments"] == 1
    feed = {item["post_id"]: item for item in (await world.feed(bob))["items"]}
    assert feed[answer]["in_reply_to"]["post_id"] == original
    assert feed[original]["replies"] == 1
    posts = await world.client.get(f"/v1/users/{bob.id}/posts", headers=alice.auth)
    assert posts.json()["items"][0]["in_reply_to"]["author"]["id"] == alice.id


async def test_replying_to_a_deleted_invisible_or_unknown_post_is_404_and_writes_nothing(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    deleted = await world.post(alice)
    await world.client.delete(f"/v1/posts/{deleted}", headers=alice.auth)
    private = await world.post(alice, visibility="followers")
    for parent in (deleted, private, "1234567890123"):
        response = await world.client.post(
            "/v1/posts", json={"text": "x", "in_reply_to": parent}, headers=bob.auth
        )
        assert response.status_code == 404, response.text
        assert response.headers["content-type"] == "application/problem+json"
    for parent in (str(2**63), "-1", "abc", ""):
        response = await world.client.post(
            "/v1/posts", json={"text": "x", "in_reply_to": parent}, headers=bob.auth
        )
        assert response.status_code == 422, (parent, response.text)
    await world.settle()
    assert await world.feed_ids(bob) == []


async def test_the_context_shows_ancestors_root_first_and_descendants_depth_first(
    world: World,
) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    root = await world.post(alice, "root")
    a = await reply(world, bob, root)
    b = await reply(world, carol, root)
    a1 = await reply(world, alice, a)
    a1x = await reply(world, carol, a1)
    context = await world.client.get(f"/v1/posts/{a1}/context", headers=bob.auth)
    assert context.status_code == 200, context.text
    body = context.json()
    assert [item["post_id"] for item in body["ancestors"]] == [root, a]
    assert [item["post_id"] for item in body["descendants"]] == [a1x]
    whole = (await world.client.get(f"/v1/posts/{root}/context", headers=bob.auth)).json()
    assert whole["ancestors"] == []
    assert [item["post_id"] for item in whole["descendants"]] == [a, a1, a1x, b]


async def test_the_context_pages_by_cursor_without_repeats_or_gaps(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    root = await world.post(alice, "root")
    made: list[str] = []
    for i in range(7):
        parent = made[-1] if i % 3 else root
        made.append(await reply(world, bob if i % 2 else alice, parent))
    whole = (await world.client.get(f"/v1/posts/{root}/context", headers=bob.auth)).json()
    expected = [item["post_id"] for item in whole["descendants"]]
    assert sorted(expected) == sorted(made)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = await world.client.get(f"/v1/posts/{root}/context", params=params, headers=bob.auth)
        body = page.json()
        assert body["ancestors"] == []
        seen += [item["post_id"] for item in body["descendants"]]
        cursor = body["next_cursor"]
        if not cursor:
            break
    assert seen == expected
    other = await world.post(alice, "elsewhere")
    bad = await world.client.get(
        f"/v1/posts/{other}/context", params={"cursor": "zzz"}, headers=bob.auth
    )
    assert bad.status_code == 400


async def test_a_context_cursor_is_a_place_in_the_thread_whatever_it_names(
    world: World,
) -> None:
    alice = await world.user()
    root = await world.post(alice, "root")
    replies = [await reply(world, alice, root) for _ in range(2)]
    url = f"/v1/posts/{root}/context"

    async def page(cursor: str) -> Any:
        response = await world.client.get(url, params={"cursor": cursor}, headers=alice.auth)
        assert response.status_code == 200, response.text
        return [item["post_id"] for item in response.json()["descendants"]]

    assert await page("t0") == replies  # before the thread: from its first reply
    assert await page("t" + "f" * 32) == []  # past it: nothing more
    assert await page(f"t{int(root):016x}{int(replies[0]):016x}") == replies[1:]


async def test_the_context_leaves_out_what_the_reader_may_not_see(world: World) -> None:
    alice, bob, carol, reader = [await world.user() for _ in range(4)]
    root = await world.post(alice, "root")
    blocked = await reply(world, bob, root)
    muted = await reply(world, carol, root)
    private = await reply(world, carol, root, visibility="followers")
    deleted = await reply(world, alice, root)
    kept = await reply(world, alice, root)
    await world.client.delete(f"/v1/posts/{deleted}", headers=alice.auth)
    await world.client.put(f"/v1/users/{bob.id}/block", headers=reader.auth)
    await world.client.put(f"/v1/users/{carol.id}/mute", headers=reader.auth)
    body = (await world.client.get(f"/v1/posts/{root}/context", headers=reader.auth)).json()
    assert [item["post_id"] for item in body["descendants"]] == [kept]
    assert {blocked, muted, private}.isdisjoint(i["post_id"] for i in body["descendants"])
    assert (
        await world.client.get(f"/v1/posts/{blocked}/context", headers=reader.auth)
    ).status_code == 404


async def test_comments_are_the_posts_direct_replies_in_both_directions(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    root = await world.post(alice, "root")
    by_reply = await reply(world, bob, root, "as a reply")
    comment = await world.client.post(
        f"/v1/posts/{root}/comments", json={"text": "as a comment"}, headers=bob.auth
    )
    assert comment.status_code == 201
    comment_id = comment.json()["id"]
    await reply(world, alice, by_reply, "deeper: not a comment of root")
    listed = await world.client.get(f"/v1/posts/{root}/comments", headers=alice.auth)
    assert [c["id"] for c in listed.json()["items"]] == [comment_id, by_reply]
    as_post = (await world.client.get(f"/v1/posts/{comment_id}", headers=alice.auth)).json()
    assert as_post["in_reply_to"]["post_id"] == root and as_post["text"] == "as a comment"
    await world.settle()
    root_view = (await world.client.get(f"/v1/posts/{root}", headers=alice.auth)).json()
    assert root_view["comments"] == root_view["replies"] == 2
    gone = await world.client.delete(f"/v1/posts/{root}/comments/{comment_id}", headers=bob.auth)
    assert gone.status_code == 204
    await world.settle()
    root_view = (await world.client.get(f"/v1/posts/{root}", headers=alice.auth)).json()
    assert root_view["comments"] == 1
    missing = await world.client.get(f"/v1/posts/{comment_id}", headers=alice.auth)
    assert missing.status_code == 404
