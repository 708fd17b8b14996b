"""Notifications over /v1, on every backend: each type, grouping and its undo, blocks
and mutes, deleted and hidden posts, filters, the cursor, and bad input."""

from __future__ import annotations

from typing import Any

import httpx

from tests.world import User, World


async def notifications(world: World, user: User, **params: Any) -> dict[str, Any]:
    response = await world.client.get("/v1/notifications", params=params, headers=user.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def items(world: World, user: User, **params: Any) -> list[dict[str, Any]]:
    await world.settle()
    found: list[dict[str, Any]] = (await notifications(world, user, **params))["items"]
    return found


async def like(world: World, user: User, post_id: str, undo: bool = False) -> None:
    method = world.client.delete if undo else world.client.put
    response = await method(f"/v1/posts/{post_id}/like", headers=user.auth)
    assert response.status_code == 200, response.text


async def relation(world: World, user: User, other: User, name: str, undo: bool = False) -> None:
    method = world.client.delete if undo else world.client.put
    response = await method(f"/v1/users/{other.id}/{name}", headers=user.auth)
    assert response.status_code == 200, response.text


def summary(item: dict[str, Any]) -> tuple[str, list[str], int]:
    return item["type"], [a["id"] for a in item["accounts"]], item["accounts_count"]


async def test_likes_of_one_post_are_one_group_listing_the_most_recent_first(
    world: World,
) -> None:
    author = await world.user()
    fans = [await world.user() for _ in range(10)]
    post = await world.post(author, "likeable")
    for fan in fans:
        await like(world, fan, post)
    [item] = await items(world, author)
    assert summary(item) == ("like", [fan.id for fan in reversed(fans)][:8], 10)
    assert item["post"]["post_id"] == post and item["post"]["text"] == "likeable"
    assert item["group_key"].startswith(f"like:{post}:")
    assert set(item) == {
        "id",
        "type",
        "created_at",
        "accounts",
        "accounts_count",
        "post",
        "group_key",
    }
    assert set(item["accounts"][0]) == {"id", "name", "avatar"}


async def test_an_unlike_removes_the_account_and_an_empty_group_disappears(
    world: World,
) -> None:
    author, alice, bob = await world.user(), await world.user(), await world.user()
    post = await world.post(author)
    await like(world, alice, post)
    await like(world, bob, post)
    await like(world, bob, post, undo=True)
    [item] = await items(world, author)
    assert summary(item) == ("like", [alice.id], 1)
    await like(world, alice, post, undo=True)
    assert await items(world, author) == []


async def test_an_unlike_of_a_listed_account_lists_the_next_most_recent_from_the_truth(
    world: World,
) -> None:
    author = await world.user()
    fans = [await world.user() for _ in range(10)]
    post = await world.post(author)
    for fan in fans:
        await like(world, fan, post)
    await world.settle()
    await like(world, fans[-1], post, undo=True)
    [item] = await items(world, author)
    assert summary(item) == ("like", [fan.id for fan in reversed(fans[:-1])][:8], 9)


async def test_replies_quotes_reposts_and_follows_each_notify_the_author(world: World) -> None:
    author, alice, bob = await world.user(), await world.user(), await world.user()
    post = await world.post(author, "original")
    reply = await world.post(alice, "a reply", in_reply_to=post)
    quote = await world.post(bob, "a quote", quote_of=post)
    assert (
        await world.client.put(f"/v1/posts/{post}/repost", headers=alice.auth)
    ).status_code == 200
    assert (await world.client.put(f"/v1/posts/{post}/repost", headers=bob.auth)).status_code == 200
    await world.follow(alice, author)
    await world.follow(bob, author)
    found = {item["type"]: item for item in await items(world, author)}
    assert set(found) == {"reply", "quote", "repost", "follow"}
    assert found["reply"]["post"]["post_id"] == reply
    assert summary(found["reply"]) == ("reply", [alice.id], 1)
    assert found["quote"]["post"]["post_id"] == quote
    assert summary(found["repost"]) == ("repost", [bob.id, alice.id], 2)
    assert found["repost"]["post"]["post_id"] == post
    assert summary(found["follow"]) == ("follow", [bob.id, alice.id], 2)
    assert found["follow"]["post"] is None


async def test_a_mention_notifies_the_account_once_and_a_reply_to_it_is_a_reply(
    world: World,
) -> None:
    author, kim = await world.user(), await world.user()
    post = await world.post(author, f"hello @{kim.username} and @{kim.username}")
    [item] = await items(world, kim)
    assert summary(item) == ("mention", [author.id], 1)
    assert item["post"]["post_id"] == post and item["group_key"] == f"mention:{post}"
    reply = await world.post(author, f"@{kim.username} again", in_reply_to=item["post"]["post_id"])
    await world.post(kim, "mine")
    newest, _ = await items(world, kim)
    assert newest["type"] == "mention" and newest["post"]["post_id"] == reply
    answer = await world.post(kim, f"@{author.username} thanks", in_reply_to=reply)
    [only] = await items(world, author)
    assert only["type"] == "reply" and only["post"]["post_id"] == answer


async def test_a_mention_added_by_an_edit_notifies_only_the_newly_mentioned(
    world: World,
) -> None:
    author, kim, lee = await world.user(), await world.user(), await world.user()
    post = await world.post(author, f"hello @{kim.username}")
    edit = {"text": f"hello @{kim.username} and @{lee.username}"}
    answer = await world.client.patch(f"/v1/posts/{post}", json=edit, headers=author.auth)
    assert answer.status_code == 200
    [told] = await items(world, lee)
    assert summary(told) == ("mention", [author.id], 1) and told["post"]["post_id"] == post
    assert len(await items(world, kim)) == 1  # kim was told when the post was written


async def test_an_unrepost_and_an_unfollow_leave_their_groups(world: World) -> None:
    author, alice, bob = await world.user(), await world.user(), await world.user()
    post = await world.post(author)
    for fan in (alice, bob):
        await world.client.put(f"/v1/posts/{post}/repost", headers=fan.auth)
        await world.follow(fan, author)
    await world.client.delete(f"/v1/posts/{post}/repost", headers=alice.auth)
    await relation(world, bob, author, "follow", undo=True)
    found = {item["type"]: summary(item) for item in await items(world, author)}
    assert found == {"repost": ("repost", [bob.id], 1), "follow": ("follow", [alice.id], 1)}


async def test_your_own_actions_notify_nobody(world: World) -> None:
    author = await world.user()
    post = await world.post(author)
    await like(world, author, post)
    await world.post(author, "self reply", in_reply_to=post)
    await world.post(author, "self quote", quote_of=post)
    assert await items(world, author) == []


async def test_a_deleted_post_takes_its_notifications_with_it(world: World) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    reply = await world.post(fan, "reply", in_reply_to=post)
    await like(world, fan, post)
    assert len(await items(world, author)) == 2
    await world.client.delete(f"/v1/posts/{reply}", headers=fan.auth)
    [left] = await items(world, author)
    assert left["type"] == "like"
    await world.client.delete(f"/v1/posts/{post}", headers=author.auth)
    assert await items(world, author) == []


async def test_blocked_and_muted_accounts_notify_nobody_either_way(world: World) -> None:
    author, blocked, blocker, muted = [await world.user() for _ in range(4)]
    post = await world.post(author)
    # Liked before the block, folded after it (nothing settled yet): dropped for good.
    await like(world, blocked, post)
    await like(world, blocker, post)
    await relation(world, author, blocked, "block")
    await relation(world, blocker, author, "block")
    await relation(world, author, muted, "mute")
    await like(world, muted, post)
    assert await items(world, author) == []
    await relation(world, author, blocked, "block", undo=True)
    await relation(world, blocker, author, "block", undo=True)
    await relation(world, author, muted, "mute", undo=True)
    assert await items(world, author) == []


async def test_a_block_placed_later_hides_what_the_account_did_before(world: World) -> None:
    author, fan, other = await world.user(), await world.user(), await world.user()
    post = await world.post(author)
    await like(world, fan, post)
    await like(world, other, post)
    assert summary((await items(world, author))[0])[2] == 2
    await relation(world, author, fan, "block")
    [item] = await items(world, author)
    assert summary(item) == ("like", [other.id], 1)


async def test_a_mute_without_notifications_keeps_them(world: World) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    muted = await world.client.put(
        f"/v1/users/{fan.id}/mute", json={"notifications": False}, headers=author.auth
    )
    assert muted.json() == {"changed": True}
    await like(world, fan, post)
    [item] = await items(world, author)
    assert summary(item) == ("like", [fan.id], 1)
    again = await world.client.put(
        f"/v1/users/{fan.id}/mute", json={"notifications": True}, headers=author.auth
    )
    assert again.json() == {"changed": True}
    assert await items(world, author) == []


async def test_a_post_no_longer_visible_to_the_recipient_is_left_out(world: World) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await world.follow(author, fan)
    reply = await world.post(fan, "for followers", in_reply_to=post, visibility="followers")
    [item] = await items(world, author)
    assert item["post"]["post_id"] == reply
    await relation(world, author, fan, "follow", undo=True)
    assert await items(world, author) == []


async def test_types_and_exclude_types_filter_and_unknown_types_are_422(world: World) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await like(world, fan, post)
    await world.follow(fan, author)
    await world.settle()
    assert [i["type"] for i in await items(world, author, types="like")] == ["like"]
    assert [i["type"] for i in await items(world, author, types=["like", "follow"])] == [
        "follow",
        "like",
    ]
    assert [i["type"] for i in await items(world, author, exclude_types="follow")] == ["like"]
    bad = await world.client.get("/v1/notifications", params={"types": "poke"}, headers=author.auth)
    assert bad.status_code == 422
    assert bad.headers["content-type"].startswith("application/problem+json")


async def test_the_cursor_pages_through_every_group_once(world: World) -> None:
    author = await world.user()
    fans = [await world.user() for _ in range(7)]
    for fan in fans:
        post = await world.post(author)
        await like(world, fan, post)
    await world.settle()
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    while True:
        page = await notifications(world, author, **params)
        seen += [item["id"] for item in page["items"]]
        if not page["next_cursor"]:
            break
        params["cursor"] = page["next_cursor"]
    assert len(seen) == 7 == len(set(seen))
    assert seen == sorted(seen, key=int, reverse=True)


async def test_a_moderation_outcome_notifies_the_author(world: World) -> None:
    from feedloom.domain.model import Role

    author, mod = await world.user(), await world.user()
    await world.feedloom.services.account_lifecycle.set_role(mod.username, Role.MODERATOR)
    post = await world.post(author)
    response = await world.client.post(f"/v1/moderation/posts/{post}/reject", headers=mod.auth)
    assert response.status_code == 200, response.text
    [item] = await items(world, author)
    assert item["type"] == "moderation" and item["group_key"] == f"moderation:{post}:rejected"
    assert item["post"] is None and item["accounts"] == [] and item["accounts_count"] == 0


def problem(response: httpx.Response) -> bool:
    return response.status_code == 422 and response.headers["content-type"].startswith(
        "application/problem+json"
    )
