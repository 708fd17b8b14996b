"""Distinct viewers on every served item (HyperLogLog) and GET /v1/trending (a sketch
per window): counted when served, best first, visible public posts only."""

from __future__ import annotations

from typing import Any

from feedloom.domain.model import Role
from tests.world import User, World


async def trending(world: World, reader: User, **params: Any) -> list[dict[str, Any]]:
    response = await world.client.get("/v1/trending", params=params, headers=reader.auth)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def like(world: World, user: User, post_id: str) -> None:
    response = await world.client.put(f"/v1/posts/{post_id}/like", headers=user.auth)
    assert response.status_code == 200, response.text


async def test_a_post_counts_each_reader_it_was_served_to_once(world: World) -> None:
    author = await world.user()
    readers = [await world.user() for _ in range(3)]
    post_id = await world.post(author, "look at me")
    for reader in readers:
        await world.follow(reader, author)
    await world.settle()

    for reader in [*readers, readers[0]]:
        await world.feed(reader)
    single = await world.client.get(f"/v1/posts/{post_id}", headers=readers[1].auth)

    assert single.json()["views"] == 3
    [item] = (await world.feed(author))["items"]
    assert item["views"] == 4  # the author read it too, just now


async def test_trending_ranks_the_most_engaged_visible_public_posts_first(world: World) -> None:
    author, reader = await world.user(), await world.user()
    fans = [await world.user() for _ in range(3)]
    quiet = await world.post(author, "quiet")
    loud = await world.post(author, "loud")
    private = await world.post(author, "for followers", visibility="followers")
    for fan in fans:
        await world.follow(fan, author)
        await like(world, fan, loud)
        await like(world, fan, private)
    await like(world, fans[0], quiet)
    await world.settle()

    items = await trending(world, reader, window="1h", limit=20)

    assert [item["post_id"] for item in items] == [loud, quiet]
    assert items[0]["score"] > items[1]["score"] and items[0]["likes"] == 3


async def test_likes_from_a_flagged_account_do_not_make_a_post_trend(world: World) -> None:
    author, reader, mod = await world.user(), await world.user(), await world.user()
    await world.feedloom.services.account_lifecycle.set_role(mod.username, Role.MODERATOR)
    suspicious = await world.user()
    flagged = await world.client.put(
        f"/v1/moderation/accounts/{suspicious.username}/flag", headers=mod.auth
    )
    assert flagged.json()["flagged"] is True
    post_id = await world.post(author, "boosted")

    await like(world, suspicious, post_id)
    await world.settle()

    assert await trending(world, reader) == []
    liked = await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)
    assert liked.json()["likes"] == 1  # the like itself stands


async def test_an_unknown_window_is_refused(world: World) -> None:
    reader = await world.user()
    response = await world.client.get("/v1/trending?window=5m", headers=reader.auth)
    assert response.status_code == 422


async def test_a_post_kept_from_a_readers_feed_does_not_count_them_as_a_viewer(
    world: World,
) -> None:
    """A warm page counts its likely posts as seen in the same round trip as their views
    (read/hydrate.py): only posts whose authors pass the reader's relations, never one
    the feed then drops for them (here: a muted author)."""
    kept, muted, reader, other = [await world.user() for _ in range(4)]
    for author in (kept, muted):
        await world.follow(reader, author)
    await world.follow(other, muted)
    await world.post(kept, "seen")
    await world.settle()
    await world.feed(reader)  # warm: the authors of the reader's candidates are known
    response = await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    assert response.status_code == 200, response.text
    hidden = await world.post(muted, "not for the reader")
    await world.settle()

    page = await world.feed(reader)
    assert hidden not in [item["post_id"] for item in page["items"]]
    assert all(item["views"] >= 1 for item in page["items"])
    [item] = (await world.feed(other))["items"]
    assert item["post_id"] == hidden
    assert item["views"] == 1  # the other reader alone
