"""Who to follow (GET /v1/users/suggestions): friends of friends first, weighted by how
many of your followees follow them, then popular accounts; never anyone you follow,
block, are blocked by or mute, a dismissed suggestion, a suspended account, or you."""

from __future__ import annotations

from typing import Any

from tests.world import User, World


async def suggested(world: World, viewer: User, **params: Any) -> list[dict[str, Any]]:
    response = await world.client.get("/v1/users/suggestions", headers=viewer.auth, params=params)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def test_friends_of_friends_come_first_then_popular_accounts(world: World) -> None:
    me, a, b = await world.user(), await world.user(), await world.user()
    loved, liked, star = await world.user(), await world.user(), await world.user()
    for followee in (a, b):
        await world.follow(me, followee)
        await world.follow(followee, loved)
    await world.follow(a, liked)
    for fan in (a, b, loved, liked):
        await world.follow(fan, star)
    found = await suggested(world, me, limit=3)
    assert [(s["id"], s["reason"], s["followed_by"]) for s in found] == [
        (loved.id, "followed_by", 2),  # a and b follow loved and star: ties by id
        (star.id, "followed_by", 2),
        (liked.id, "followed_by", 1),
    ]
    new = await world.user()
    popular = await suggested(world, new, limit=1)
    assert [(s["id"], s["reason"], s["followed_by_me"]) for s in popular] == [
        (star.id, "popular", False)
    ]


async def test_suggestions_leave_out_every_account_you_chose_against(world: World) -> None:
    me, friend = await world.user(), await world.user()
    others = {name: await world.user() for name in ("followed", "blocked", "blocker", "muted")}
    others["dismissed"], others["suspended"], kept = (
        await world.user(),
        await world.user(f"sus_{friend.username}"),
        await world.user(),
    )
    await world.follow(me, friend)
    await world.follow(friend, me)
    for other in [*others.values(), kept]:
        await world.follow(friend, other)
    await world.follow(me, others["followed"])
    await world.client.put(f"/v1/users/{others['blocked'].id}/block", headers=me.auth)
    await world.client.put(f"/v1/users/{me.id}/block", headers=others["blocker"].auth)
    await world.client.put(f"/v1/users/{others['muted'].id}/mute", headers=me.auth)
    url = f"/v1/users/suggestions/{others['dismissed'].id}"
    first = await world.client.delete(url, headers=me.auth)
    again = await world.client.delete(url, headers=me.auth)
    assert (first.json(), again.json()) == ({"changed": True}, {"changed": False})
    await world.feedloom.services.account_lifecycle.suspend(others["suspended"].username)
    assert [s["id"] for s in await suggested(world, me, limit=50)] == [kept.id]


async def test_dismissing_nobody_is_a_404_and_the_limit_is_checked(world: World) -> None:
    me = await world.user()
    missing = await world.client.delete("/v1/users/suggestions/123456789", headers=me.auth)
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    too_many = await world.client.get("/v1/users/suggestions?limit=51", headers=me.auth)
    assert too_many.status_code == 422
