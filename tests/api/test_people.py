"""Finding people: lookup by username, prefix search, followers and following."""

from __future__ import annotations

from typing import Any

from tests.world import PASSWORD, User, World


async def get(world: World, viewer: User, url: str, **params: Any) -> Any:
    response = await world.client.get(url, params=params, headers=viewer.auth)
    assert response.status_code == 200, response.text
    return response.json()


async def search_ids(world: World, viewer: User, q: str, **params: Any) -> list[str]:
    return [p["id"] for p in (await get(world, viewer, "/v1/users/search", q=q, **params))["items"]]


async def test_usernames_are_unique_regardless_of_case(world: World) -> None:
    await world.user("kim")
    body = {"username": "KIM", "password": PASSWORD, "display_name": "Kim"}
    taken = await world.client.post("/v1/accounts", json=body)
    assert taken.status_code == 409
    assert taken.headers["content-type"] == "application/problem+json"


async def test_signing_in_ignores_the_case_of_the_username(world: World) -> None:
    await world.user("Casey")
    body = {"username": "casey", "password": PASSWORD}
    assert (await world.client.post("/v1/sessions", json=body)).status_code == 201


async def test_a_lookup_ignores_case_and_answers_404_for_nobody(world: World) -> None:
    me, kim = await world.user(), await world.user("Kim_Lee")
    found = await get(world, me, "/v1/users/lookup", username="kim_lee")
    assert found["id"] == kim.id and found["username"] == "Kim_Lee"
    assert found["followed_by_me"] is False and found["follows_me"] is False
    missing = await world.client.get(
        "/v1/users/lookup", params={"username": "nobody_here"}, headers=me.auth
    )
    assert missing.status_code == 404
    assert missing.json()["type"].endswith("/not-found")


async def test_a_lookup_of_someone_who_blocked_you_is_a_404(world: World) -> None:
    me, blocker = await world.user(), await world.user("blocker_1")
    await world.client.put(f"/v1/users/{me.id}/block", headers=blocker.auth)
    response = await world.client.get(
        "/v1/users/lookup", params={"username": "blocker_1"}, headers=me.auth
    )
    assert response.status_code == 404


async def test_search_matches_a_prefix_of_username_or_name_exact_username_first(
    world: World,
) -> None:
    me = await world.user()
    exact = await world.user("ann")
    popular = await world.user("anna_p")
    other = await world.user("annika")
    by_name = await world.user("zed_1")
    renamed = await world.client.post(
        "/v1/accounts",
        json={"username": "xy_ann", "password": PASSWORD, "display_name": "Annabel X"},
    )
    for fan in [await world.user() for _ in range(2)]:
        await world.follow(fan, popular)
    await world.follow(me, other)
    ids = await search_ids(world, me, "ANN")
    assert ids[0] == exact.id
    assert ids[1] == popular.id  # most followers next
    assert set(ids) == {exact.id, popular.id, other.id, renamed.json()["id"]}
    assert by_name.id not in ids


async def test_search_pages_by_cursor_without_repeats(world: World) -> None:
    me = await world.user()
    created = {(await world.user(f"page_{i}")).id for i in range(5)}
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"q": "page_", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        body = await get(world, me, "/v1/users/search", **params)
        seen += [p["id"] for p in body["items"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(created)


async def test_search_leaves_out_accounts_blocked_either_way(world: World) -> None:
    me = await world.user()
    blocked, blocker, fine = [await world.user(f"blk_{n}") for n in "abc"]
    await world.client.put(f"/v1/users/{blocked.id}/block", headers=me.auth)
    await world.client.put(f"/v1/users/{me.id}/block", headers=blocker.auth)
    assert await search_ids(world, me, "blk_") == [fine.id]
    assert await search_ids(world, me, "blk_a") == []


async def test_search_input_is_checked(world: World) -> None:
    me = await world.user()
    cases: list[dict[str, str | int]] = [
        {"q": ""},
        {"q": "x" * 201},
        {"q": "!?"},
        {"q": "a", "limit": 0},
        {},
    ]
    for params in cases:
        response = await world.client.get("/v1/users/search", params=params, headers=me.auth)
        assert response.status_code == 422, params
    bad = await world.client.get(
        "/v1/users/search", params={"q": "a", "cursor": "zzz"}, headers=me.auth
    )
    assert bad.status_code == 400


async def test_followers_and_following_are_newest_first_with_both_flags(world: World) -> None:
    me, star = await world.user(), await world.user()
    fans = [await world.user() for _ in range(3)]
    for fan in fans:
        await world.follow(fan, star)
    await world.follow(me, fans[0])  # I follow fan 0
    await world.follow(fans[1], me)  # fan 1 follows me
    body = await get(world, me, f"/v1/users/{star.id}/followers")
    assert [p["id"] for p in body["items"]] == [f.id for f in reversed(fans)]
    flags = {p["id"]: (p["followed_by_me"], p["follows_me"]) for p in body["items"]}
    assert flags == {
        fans[0].id: (True, False),
        fans[1].id: (False, True),
        fans[2].id: (False, False),
    }
    following = await get(world, me, f"/v1/users/{fans[1].id}/following")
    assert [p["id"] for p in following["items"]] == [me.id, star.id]


async def test_followers_page_by_cursor_and_hide_blocked_accounts(world: World) -> None:
    me, star = await world.user(), await world.user()
    fans = [await world.user() for _ in range(5)]
    for fan in fans:
        await world.follow(fan, star)
    await world.client.put(f"/v1/users/{me.id}/block", headers=fans[2].auth)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        body = await get(world, me, f"/v1/users/{star.id}/followers", **params)
        seen += [p["id"] for p in body["items"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert seen == [f.id for f in reversed(fans) if f is not fans[2]]


async def test_the_followers_of_an_unknown_or_blocking_user_are_a_404(world: World) -> None:
    me, blocker = await world.user(), await world.user()
    await world.client.put(f"/v1/users/{me.id}/block", headers=blocker.auth)
    for url in ("/v1/users/12345/followers", f"/v1/users/{blocker.id}/following"):
        assert (await world.client.get(url, headers=me.auth)).status_code == 404
