"""The ranked feed's posts from outside the people the reader follows, on every backend:
posts several followees liked (`reason: {"liked_by": [...]}`, naming them) and trending
posts (`reason: {"trending": true}`), in a bounded share of the slots, never from
accounts blocked either way or muted, never a followers-only post, never in time order."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from tests.api.ranked import RANKED, generous_ranker_budget, ids, like, reader_of
from tests.world import User, World


@pytest.fixture(autouse=True)
def _generous_ranker_budget(world: World) -> None:
    generous_ranker_budget(world)


def set_share(world: World, share: float) -> None:
    outside = world.feedloom.services.home_feed.ranked.outside
    outside.config = replace(outside.config, share=share, candidates=50)


async def ranked_pages(world: World, reader: User, limit: int) -> list[list[dict[str, Any]]]:
    page = await world.feed(reader, **RANKED, limit=limit)
    pages = [page["items"]]
    while page["next_cursor"]:
        page = await world.feed(reader, cursor=page["next_cursor"], limit=limit)
        assert page["order"] == "ranked"
        pages.append(page["items"])
    return pages


def recommended(pages: list[list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    return {item["post_id"]: item for page in pages for item in page if item["reason"]}


async def stranger_post(world: World, likers: list[User], **body: Any) -> tuple[User, str]:
    """A post by someone the reader does not follow, liked by `likers`."""
    author = await world.user()
    for liker in likers:
        await world.follow(liker, author)  # so they may see a followers-only post
    post_id = await world.post(author, f"by {author.username}", **body)
    for liker in likers:
        await like(world, liker, post_id)
    return author, post_id


async def test_posts_several_followees_liked_and_trending_posts_come_with_their_reason(
    world: World,
) -> None:
    reader, followed = await reader_of(world, authors=4, posts_each=10)
    _, liked_by_two = await stranger_post(world, followed[:2])
    _, liked_by_one = await stranger_post(world, followed[2:3])
    await world.settle()

    pages = await ranked_pages(world, reader, limit=10)
    found = recommended(pages)
    assert set(found) == {liked_by_two, liked_by_one}
    two = found[liked_by_two]["reason"]
    assert set(two) == {"liked_by"}
    assert {person["id"] for person in two["liked_by"]} == {followed[0].id, followed[1].id}
    assert {"username", "name", "avatar"} <= set(two["liked_by"][0])
    # One followee's like is not "several": it trends, though.
    assert found[liked_by_one]["reason"] == {"trending": True}
    every = [item["post_id"] for page in pages for item in page]
    assert len(every) == len(set(every)) == 42  # 40 posts followed, each shown once

    explained = await world.feed(reader, **RANKED, limit=50, explain="true")
    sources = {item["post_id"]: item["explain"]["source"] for item in explained["items"]}
    assert sources[liked_by_two] == "liked_by"
    assert sources[liked_by_one] == "trending"

    chronological = await world.all_feed_ids(reader, limit=20)
    assert liked_by_two not in chronological and liked_by_one not in chronological
    plain = await world.feed(reader, order="chronological", limit=50)
    assert not any(item["reason"] for item in plain["items"])


async def test_never_from_accounts_blocked_either_way_or_muted_nor_followers_only(
    world: World,
) -> None:
    reader, followed = await reader_of(world, authors=3, posts_each=10)
    likers = followed[:2]
    blocked, from_blocked = await stranger_post(world, likers)
    blocker, from_blocker = await stranger_post(world, likers)
    muted, from_muted = await stranger_post(world, likers)
    _, followers_only = await stranger_post(world, likers, visibility="followers")
    _, allowed = await stranger_post(world, likers)
    for response in (
        await world.client.put(f"/v1/users/{blocked.id}/block", headers=reader.auth),
        await world.client.put(f"/v1/users/{reader.id}/block", headers=blocker.auth),
        await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth),
    ):
        assert response.status_code == 200, response.text
    await world.settle()
    set_share(world, 0.5)  # room for every candidate: only the rules leave any out

    found = recommended(await ranked_pages(world, reader, limit=10))
    assert set(found) == {allowed}
    assert set(found[allowed]["reason"]) == {"liked_by"}
    assert not {from_blocked, from_blocker, from_muted, followers_only} & set(found)


async def test_a_block_after_the_first_page_drops_the_recommendation_from_later_pages(
    world: World,
) -> None:
    reader, followed = await reader_of(world, authors=3, posts_each=10)
    author, post_id = await stranger_post(world, followed[:2])
    await world.settle()
    first = await world.feed(reader, **RANKED, limit=5)
    assert post_id not in ids(first)  # its slot (9) is on the second page
    await world.client.put(f"/v1/users/{author.id}/block", headers=reader.auth)
    rest: list[str] = []
    page = first
    while page["next_cursor"]:
        page = await world.feed(reader, cursor=page["next_cursor"], limit=5)
        rest += ids(page)
    assert post_id not in rest
    assert len(rest) == 25  # the 30 followed posts, less the first page's five


@pytest.mark.parametrize("share", [0.0, 0.25])
async def test_the_share_setting_bounds_recommendations_on_every_page(
    world: World, share: float
) -> None:
    reader, followed = await reader_of(world, authors=4, posts_each=5)
    strangers = [(await stranger_post(world, followed[:2]))[1] for _ in range(12)]
    await world.settle()
    set_share(world, share)

    limit = 8
    pages = await ranked_pages(world, reader, limit)
    per_page = [sum(bool(item["reason"]) for item in page) for page in pages]
    assert all(count <= math.ceil(limit * share) for count in per_page), per_page
    found = recommended(pages)
    assert set(found) <= set(strangers)
    in_network = [item for page in pages for item in page if not item["reason"]]
    assert len(in_network) == 20  # every followed post, recommendations beside them
    total = len(in_network) + len(found)
    assert len(found) == math.floor(total * share)  # the slots share falls on, all used
    assert all(set(item["reason"]) == {"liked_by"} for item in found.values())
