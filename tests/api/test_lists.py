"""Lists: CRUD, members (followed accounts only, idempotent, next read), the list feed,
exclusive lists, the replies policy, limits."""

from __future__ import annotations

from typing import Any

from tests.world import User, World


async def make_list(world: World, owner: User, **body: Any) -> dict[str, Any]:
    response = await world.client.post(
        "/v1/lists", json={"title": "Friends", **body}, headers=owner.auth
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def list_feed(world: World, reader: User, list_id: str, **params: Any) -> list[str]:
    response = await world.client.get(
        f"/v1/lists/{list_id}/feed", params=params, headers=reader.auth
    )
    assert response.status_code == 200, response.text
    return [item["post_id"] for item in response.json()["items"]]


async def test_a_list_is_created_read_renamed_and_deleted(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    created = await make_list(world, alice, replies="none")
    assert (created["title"], created["replies"], created["exclusive"], created["members"]) == (
        "Friends",
        "none",
        False,
        0,
    )
    url = f"/v1/lists/{created['id']}"
    changed = await world.client.patch(url, json={"title": "Close"}, headers=alice.auth)
    assert (changed.json()["title"], changed.json()["replies"]) == ("Close", "none")
    mine = (await world.client.get("/v1/lists", headers=alice.auth)).json()["items"]
    assert [found["id"] for found in mine] == [created["id"]]
    assert (await world.client.get(url, headers=bob.auth)).status_code == 404
    assert (await world.client.delete(url, headers=bob.auth)).status_code == 404
    assert (await world.client.delete(url, headers=alice.auth)).status_code == 204
    assert (await world.client.get(url, headers=alice.auth)).status_code == 404


async def test_members_are_followed_accounts_and_adding_twice_is_one_member(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    url = f"/v1/lists/{(await make_list(world, alice))['id']}/members"
    first = await world.client.put(f"{url}/{bob.id}", headers=alice.auth)
    second = await world.client.put(f"{url}/{bob.id}", headers=alice.auth)
    assert (first.json(), second.json()) == ({"changed": True}, {"changed": False})
    stranger = await world.client.put(f"{url}/{carol.id}", headers=alice.auth)
    assert stranger.status_code == 409  # only accounts followed
    assert stranger.headers["content-type"] == "application/problem+json"
    assert (await world.client.get(url, headers=alice.auth)).json() == {"user_ids": [bob.id]}
    gone = await world.client.delete(f"{url}/{bob.id}", headers=alice.auth)
    again = await world.client.delete(f"{url}/{bob.id}", headers=alice.auth)
    assert (gone.json(), again.json()) == ({"changed": True}, {"changed": False})


async def test_a_list_feed_shows_members_only_and_membership_counts_on_the_next_read(
    world: World,
) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.follow(alice, carol)
    list_id = (await make_list(world, alice))["id"]
    bob_posts = [await world.post(bob, f"bob {n}") for n in range(3)]
    carol_post = await world.post(carol, "carol")
    await world.settle()
    assert await list_feed(world, alice, list_id) == []
    await world.client.put(f"/v1/lists/{list_id}/members/{bob.id}", headers=alice.auth)
    assert await list_feed(world, alice, list_id) == bob_posts[::-1]
    await world.client.put(f"/v1/lists/{list_id}/members/{carol.id}", headers=alice.auth)
    assert await list_feed(world, alice, list_id) == [carol_post, *bob_posts[::-1]]
    await world.client.delete(f"/v1/lists/{list_id}/members/{carol.id}", headers=alice.auth)
    assert await list_feed(world, alice, list_id) == bob_posts[::-1]
    # Keyset pages, past the author timelines' length (20 in tests) from the store.
    more = [await world.post(bob, f"more {n}") for n in range(22)]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 7, **({"cursor": cursor} if cursor else {})}
        page = await world.client.get(
            f"/v1/lists/{list_id}/feed", params=params, headers=alice.auth
        )
        seen += [item["post_id"] for item in page.json()["items"]]
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    assert seen == [*more[::-1], *bob_posts[::-1]]
    # An unfollowed member shows nothing (the home feed's filters apply).
    await world.client.delete(f"/v1/users/{bob.id}/follow", headers=alice.auth)
    assert await list_feed(world, alice, list_id) == []


async def test_an_exclusive_lists_members_leave_the_home_feed(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(alice, bob)
    await world.follow(alice, carol)
    bob_post, carol_post = await world.post(bob), await world.post(carol)
    await world.settle()
    list_id = (await make_list(world, alice, exclusive=True))["id"]
    await world.client.put(f"/v1/lists/{list_id}/members/{bob.id}", headers=alice.auth)
    assert await world.feed_ids(alice) == [carol_post]
    assert await list_feed(world, alice, list_id) == [bob_post]
    await world.client.patch(f"/v1/lists/{list_id}", json={"exclusive": False}, headers=alice.auth)
    assert await world.feed_ids(alice) == [carol_post, bob_post]
    await world.client.patch(f"/v1/lists/{list_id}", json={"exclusive": True}, headers=alice.auth)
    await world.client.delete(f"/v1/lists/{list_id}", headers=alice.auth)
    assert await world.feed_ids(alice) == [carol_post, bob_post]


async def test_the_replies_policy_picks_which_replies_a_list_feed_shows(world: World) -> None:
    alice, bob, carol, dave = [await world.user() for _ in range(4)]
    for followee in (bob, carol, dave):
        await world.follow(alice, followee)
    carol_post, dave_post = await world.post(carol, "carol"), await world.post(dave, "dave")
    to_carol = await world.post(bob, "re carol", in_reply_to=carol_post)
    to_dave = await world.post(bob, "re dave", in_reply_to=dave_post)
    await world.settle()
    list_id = (await make_list(world, alice, replies="list"))["id"]
    for member in (bob, carol):
        await world.client.put(f"/v1/lists/{list_id}/members/{member.id}", headers=alice.auth)
    assert await list_feed(world, alice, list_id) == [to_carol, carol_post]
    await world.client.patch(
        f"/v1/lists/{list_id}", json={"replies": "followed"}, headers=alice.auth
    )
    assert await list_feed(world, alice, list_id) == [to_dave, to_carol, carol_post]
    await world.client.patch(f"/v1/lists/{list_id}", json={"replies": "none"}, headers=alice.auth)
    assert await list_feed(world, alice, list_id) == [carol_post]


async def test_lists_and_members_are_limited_by_settings(world: World) -> None:
    alice = await world.user()
    for _ in range(3):
        await make_list(world, alice)
    over = await world.client.post("/v1/lists", json={"title": "x"}, headers=alice.auth)
    assert over.status_code == 409
    list_id = (await world.client.get("/v1/lists", headers=alice.auth)).json()["items"][0]["id"]
    friends = [await world.user() for _ in range(5)]
    for friend in friends:
        await world.follow(alice, friend)
    answers = [
        (
            await world.client.put(f"/v1/lists/{list_id}/members/{f.id}", headers=alice.auth)
        ).status_code
        for f in friends
    ]
    assert answers == [200, 200, 200, 200, 409]


async def test_a_keyed_create_is_safe_to_retry(world: World) -> None:
    alice = await world.user()
    headers = {**alice.auth, "Idempotency-Key": "list-1"}
    first = await world.client.post("/v1/lists", json={"title": "A"}, headers=headers)
    again = await world.client.post("/v1/lists", json={"title": "A"}, headers=headers)
    assert again.json()["id"] == first.json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = await world.client.post("/v1/lists", json={"title": "B"}, headers=headers)
    assert other.status_code == 409
    assert len((await world.client.get("/v1/lists", headers=alice.auth)).json()["items"]) == 1


async def test_bad_list_input_is_422_and_writes_nothing(world: World) -> None:
    alice = await world.user()
    for body in ({"title": ""}, {"title": "x", "replies": "all"}, {"title": "x", "extra": 1}):
        response = await world.client.post("/v1/lists", json=body, headers=alice.auth)
        assert response.status_code == 422, body
    assert (await world.client.get("/v1/lists", headers=alice.auth)).json() == {"items": []}
