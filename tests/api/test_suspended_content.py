"""A suspended (or deleted) account is hidden wherever what it wrote or its profile
could appear, as its posts are: comments and their counts, lists of people. On
PostgreSQL + Redis every API process of the deployment agrees at once: a second app on
the same store and caches, its caches warmed first, reads too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.lifespan import lifespan_of
from tests.world import User, World


@pytest.fixture
async def processes(world: World, app_settings: Settings) -> AsyncIterator[list[httpx.AsyncClient]]:
    """A client per API process: with shared caches (Redis) a second app beside the
    test's own; with in-process caches there is one process to ask."""
    if app_settings.redis_url is None:
        yield [world.client]
        return
    second = create_app(app_settings, inline_worker=False)
    transport = httpx.ASGITransport(app=second)
    async with (
        lifespan_of(second),
        httpx.AsyncClient(transport=transport, base_url="http://test") as other,
    ):
        yield [world.client, other]


async def _get(client: httpx.AsyncClient, reader: User, url: str, **params: Any) -> Any:
    response = await client.get(url, params=params, headers=reader.auth)
    assert response.status_code == 200, response.text
    return response.json()


async def _comments_seen(client: httpx.AsyncClient, reader: User, post_id: str) -> list[Any]:
    """(comment texts listed, comment count on the post, on the feed item)."""
    listed = await _get(client, reader, f"/v1/posts/{post_id}/comments")
    post = await _get(client, reader, f"/v1/posts/{post_id}")
    feed = await _get(client, reader, "/v1/feed")
    [item] = [item for item in feed["items"] if item["post_id"] == post_id]
    return [[c["text"] for c in listed["items"]], post["comments"], item["comments"]]


async def test_a_suspended_accounts_comments_and_their_counts_leave_every_process_at_once(
    world: World, processes: list[httpx.AsyncClient]
) -> None:
    author, reader, troll, fine = [await world.user() for _ in range(4)]
    await world.follow(reader, author)
    post_id = await world.post(author)
    for who, text in ((troll, "rude"), (fine, "kind"), (troll, "ruder")):
        created = await world.client.post(
            f"/v1/posts/{post_id}/comments", json={"text": text}, headers=who.auth
        )
        assert created.status_code == 201, created.text
    await world.settle()
    everything = [["ruder", "kind", "rude"], 3, 3]
    for client in processes:  # every process has the comments and counts cached now
        assert await _comments_seen(client, reader, post_id) == everything
    lifecycle = world.feedloom.services.account_lifecycle

    await lifecycle.suspend(troll.username)

    for client in processes:
        assert await _comments_seen(client, reader, post_id) == [["kind"], 1, 1]
    await lifecycle.reinstate(troll.username)
    for client in processes:
        assert await _comments_seen(client, reader, post_id) == everything


async def _people_seen(client: httpx.AsyncClient, reader: User, star: User) -> list[list[str]]:
    """(search results for "hid_", the star's followers, whom the star follows)."""
    return [
        [p["id"] for p in (await _get(client, reader, url, **params))["items"]]
        for url, params in (
            ("/v1/users/search", {"q": "hid_"}),
            (f"/v1/users/{star.id}/followers", {}),
            (f"/v1/users/{star.id}/following", {}),
        )
    ]


async def test_suspended_and_deleted_accounts_leave_every_list_of_people(
    world: World, processes: list[httpx.AsyncClient]
) -> None:
    reader, star = await world.user(), await world.user()
    suspended, deleted, fine = [await world.user(f"hid_{n}") for n in "abc"]
    for fan in (suspended, deleted, fine):
        await world.follow(fan, star)
        await world.follow(star, fan)
    everyone = [fine.id, deleted.id, suspended.id]  # newest follow first; search ties by id
    for client in processes:
        seen = await _people_seen(client, reader, star)
        assert seen == [everyone[::-1], everyone, everyone]
    lifecycle = world.feedloom.services.account_lifecycle

    await lifecycle.suspend(suspended.username)
    await lifecycle.delete(deleted.username)

    for client in processes:
        assert await _people_seen(client, reader, star) == [[fine.id]] * 3
    await lifecycle.reinstate(suspended.username)
    for client in processes:
        seen = await _people_seen(client, reader, star)
        assert seen == [[suspended.id, fine.id], [fine.id, suspended.id], [fine.id, suspended.id]]
