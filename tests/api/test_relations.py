"""Follow, block and mute: idempotent, enforced on the very next read."""

from __future__ import annotations

from typing import Any

from tests.world import PASSWORD, User, World


async def test_following_twice_is_one_follow(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    url = f"/v1/users/{alice.id}/follow"
    first = await world.client.put(url, headers=bob.auth)
    second = await world.client.put(url, headers=bob.auth)
    assert (first.json(), second.json()) == ({"changed": True}, {"changed": False})
    profile = (await world.client.get(f"/v1/users/{alice.id}", headers=bob.auth)).json()
    assert profile["followers"] == 1
    assert (await world.client.get("/v1/me", headers=bob.auth)).json()["following"] == 1
    await world.client.delete(url, headers=bob.auth)
    again = await world.client.delete(url, headers=bob.auth)
    assert again.json() == {"changed": False}
    assert (await world.client.get(f"/v1/users/{alice.id}", headers=bob.auth)).json()[
        "followers"
    ] == 0


async def test_a_new_follow_shows_the_followees_recent_posts_at_once(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    old = [await world.post(alice, f"old {n}") for n in range(3)]
    await world.feed(bob)  # bob's timeline exists before he follows
    await world.follow(bob, alice)
    assert await world.feed_ids(bob) == old[::-1]


async def test_an_unfollowed_author_is_gone_on_the_next_read(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    await world.post(alice)
    await world.settle()
    assert len(await world.feed_ids(bob)) == 1
    await world.client.delete(f"/v1/users/{alice.id}/follow", headers=bob.auth)
    assert await world.feed_ids(bob) == []


async def test_blocking_hides_both_ways_and_removes_follows_both_ways(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.follow(alice, bob)
    alice_post = await world.post(alice)
    bob_post = await world.post(bob)
    await world.settle()
    await world.client.put(f"/v1/users/{bob.id}/block", headers=alice.auth)
    assert await world.feed_ids(bob) == [bob_post]
    assert await world.feed_ids(alice) == [alice_post]
    assert (await world.client.get(f"/v1/users/{alice.id}", headers=bob.auth)).status_code == 404
    assert (await world.client.get(f"/v1/posts/{alice_post}", headers=bob.auth)).status_code == 404
    refollow = await world.client.put(f"/v1/users/{alice.id}/follow", headers=bob.auth)
    assert refollow.status_code == 404  # under a block the account is not there for bob
    me = (await world.client.get("/v1/me", headers=alice.auth)).json()
    assert (me["followers"], me["following"]) == (0, 0)


async def test_a_muted_author_leaves_the_feed_but_keeps_the_follow(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    post_id = await world.post(alice)
    await world.client.put(f"/v1/users/{alice.id}/mute", headers=bob.auth)
    assert await world.feed_ids(bob) == []
    profile_posts = await world.client.get(f"/v1/users/{alice.id}/posts", headers=bob.auth)
    assert [i["post_id"] for i in profile_posts.json()["items"]] == [post_id]
    await world.client.delete(f"/v1/users/{alice.id}/mute", headers=bob.auth)
    assert await world.feed_ids(bob) == [post_id]


async def test_relations_with_yourself_or_nobody_are_refused(world: World) -> None:
    alice = await world.user()
    assert (
        await world.client.put(f"/v1/users/{alice.id}/follow", headers=alice.auth)
    ).status_code == 422
    assert (
        await world.client.put("/v1/users/123456789/follow", headers=alice.auth)
    ).status_code == 404
    assert (await world.client.put("/v1/users/abc/mute", headers=alice.auth)).status_code == 404


async def test_a_profile_lists_its_posts_with_visibility_rules(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(bob, alice)
    public = await world.post(alice, "public")
    private = await world.post(alice, "followers only", visibility="followers")
    for reader, expected in (
        (bob, [private, public]),
        (carol, [public]),
        (alice, [private, public]),
    ):
        response = await world.client.get(f"/v1/users/{alice.id}/posts", headers=reader.auth)
        assert [item["post_id"] for item in response.json()["items"]] == expected


async def test_following_blocking_or_muting_a_deleted_account_is_a_404(world: World) -> None:
    alice, gone = await world.user(), await world.user()
    erased = await world.client.request(
        "DELETE", "/v1/me", json={"password": PASSWORD}, headers=gone.auth
    )
    assert erased.status_code == 204
    for relation in ("follow", "block", "mute"):
        url = f"/v1/users/{gone.id}/{relation}"
        for answer in (
            await world.client.put(url, headers=alice.auth),
            await world.client.delete(url, headers=alice.auth),
        ):
            assert answer.status_code == 404, (relation, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
    me = (await world.client.get("/v1/me", headers=alice.auth)).json()
    assert me["following"] == 0


async def test_a_suspended_account_cannot_be_followed_but_can_be_unfollowed(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.feedloom.services.account_lifecycle.suspend(bob.username)
    for relation in ("block", "mute"):
        put = await world.client.put(f"/v1/users/{bob.id}/{relation}", headers=alice.auth)
        assert put.status_code == 404, (relation, put.text)
    unfollowed = await world.client.delete(f"/v1/users/{bob.id}/follow", headers=alice.auth)
    assert unfollowed.json() == {"changed": True}
    refollow = await world.client.put(f"/v1/users/{bob.id}/follow", headers=alice.auth)
    assert refollow.status_code == 404


async def relation(world: World, viewer: User, user: User) -> Any:
    response = await world.client.get(f"/v1/users/{user.id}", headers=viewer.auth)
    assert response.status_code == 200, response.text
    return response.json()["relation"]


def flags(**on: bool) -> dict[str, bool]:
    return {
        name: on.get(name, False) for name in ("following", "followed_by", "blocking", "muting")
    }


async def test_a_profile_tells_the_viewers_relations_as_stored(world: World) -> None:
    ann, bo = await world.user(), await world.user()
    assert await relation(world, ann, bo) == flags()
    await world.follow(ann, bo)
    await world.client.put(f"/v1/users/{bo.id}/mute", headers=ann.auth)
    assert await relation(world, ann, bo) == flags(following=True, muting=True)
    assert (await relation(world, bo, ann))["followed_by"] is True


async def test_a_blocked_profile_stays_visible_to_the_blocker_and_missing_to_the_blocked(
    world: World,
) -> None:
    ann, bo = await world.user(), await world.user()
    await world.follow(ann, bo)
    await world.client.put(f"/v1/users/{bo.id}/block", headers=ann.auth)
    assert await relation(world, ann, bo) == flags(blocking=True)
    assert (await world.client.get(f"/v1/users/{ann.id}", headers=bo.auth)).status_code == 404
    posts = await world.client.get(f"/v1/users/{bo.id}/posts", headers=ann.auth)
    assert posts.status_code == 404  # the posts stay hidden while the block stands


async def own_list(world: World, viewer: User, kind: str, **params: Any) -> Any:
    response = await world.client.get(f"/v1/me/{kind}", headers=viewer.auth, params=params)
    assert response.status_code == 200, response.text
    return response.json()


async def test_blocks_and_mutes_are_listed_newest_first_and_can_be_undone(world: World) -> None:
    me = await world.user()
    others = [await world.user() for _ in range(3)]
    for kind in ("block", "mute"):
        for other in others:
            await world.client.put(f"/v1/users/{other.id}/{kind}", headers=me.auth)
        first = await own_list(world, me, f"{kind}s", limit=2)
        assert [p["id"] for p in first["items"]] == [others[2].id, others[1].id]
        rest = await own_list(world, me, f"{kind}s", limit=2, cursor=first["next_cursor"])
        assert ([p["id"] for p in rest["items"]], rest["next_cursor"]) == ([others[0].id], None)
        await world.client.delete(f"/v1/users/{others[1].id}/{kind}", headers=me.auth)
        after = await own_list(world, me, f"{kind}s")
        assert [p["id"] for p in after["items"]] == [others[2].id, others[0].id]
    assert (await own_list(world, others[0], "blocks"))["items"] == []


async def test_a_bad_cursor_on_the_own_lists_is_a_400_problem(world: World) -> None:
    me = await world.user()
    for kind in ("blocks", "mutes"):
        response = await world.client.get(
            f"/v1/me/{kind}", headers=me.auth, params={"cursor": "not-a-cursor"}
        )
        assert response.status_code == 400
        assert response.headers["content-type"] == "application/problem+json"
