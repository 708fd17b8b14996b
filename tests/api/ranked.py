"""Helpers for the ranked feed's API tests: a reader with followed authors, paging a
feed session, likes, and reading ids and authors off a page."""

from __future__ import annotations

from typing import Any

import httpx

from tests.world import User, World

RANKED = {"order": "ranked"}


def generous_ranker_budget(world: World) -> None:
    """On a busy test machine the 50 ms budget can run out and the feed fall back to time
    order, which is right in production but would make order assertions flaky here. The
    fallback tests set their own budget."""
    world.feedloom.services.home_feed.ranked.ranker.budget_s = 5.0


async def get_feed(world: World, reader: User, **params: Any) -> httpx.Response:
    return await world.client.get("/v1/feed", params=params, headers=reader.auth)


async def like(world: World, user: User, post_id: str) -> None:
    response = await world.client.put(f"/v1/posts/{post_id}/like", headers=user.auth)
    assert response.status_code == 200, response.text


def ids(page: dict[str, Any]) -> list[str]:
    return [item["post_id"] for item in page["items"]]


def authors(page: dict[str, Any]) -> list[str]:
    return [item["author"]["id"] for item in page["items"]]


async def reader_of(world: World, authors: int, posts_each: int) -> tuple[User, list[User]]:
    """An active reader following `authors` users who posted in turns, oldest first."""
    reader, followed = await world.user(), [await world.user() for _ in range(authors)]
    for author in followed:
        await world.follow(reader, author)
    await world.feed(reader)  # active: fan-out writes to the reader's timeline
    for n in range(posts_each):
        for author in followed:
            await world.post(author, f"{author.username} #{n}")
    await world.settle()
    return reader, followed


async def ranked_session(world: World, reader: User, limit: int) -> list[str]:
    page = await world.feed(reader, **RANKED, limit=limit)
    assert page["order"] == "ranked"
    served = ids(page)
    while page["next_cursor"]:
        page = await world.feed(reader, cursor=page["next_cursor"], limit=limit)
        assert page["order"] == "ranked"
        served += ids(page)
    return served
