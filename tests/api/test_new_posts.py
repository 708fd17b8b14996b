"""GET /v1/feed/new: "N new posts" above what the client shows, filtered like the feed,
answered from the caches."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, event

from tests.world import User, World


async def new_since(world: World, reader: User, since: str) -> Any:
    response = await world.client.get("/v1/feed/new", params={"since": since}, headers=reader.auth)
    assert response.status_code == 200, response.text
    return response.json()


@contextlib.contextmanager
def sql_statements() -> Iterator[list[str]]:
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)


async def test_new_posts_of_followees_and_ones_own_count_and_filtered_ones_do_not(
    world: World,
) -> None:
    reader, friend, muted, blocked = [await world.user() for _ in range(4)]
    for author in (friend, muted, blocked):
        await world.follow(reader, author)
    seen = await world.post(friend, "already seen")
    await world.settle()
    assert await new_since(world, reader, seen) == {"count": 0, "newest_id": None}
    await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    await world.post(friend, "new 1")
    await world.post(muted, "muted")
    await world.post(blocked, "blocked")
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocked.auth)
    own = await world.post(reader, "my own")
    await world.settle()
    assert await new_since(world, reader, seen) == {"count": 2, "newest_id": own}
    top = await world.feed_ids(reader)
    assert len(top) == 3 and top[0] == own and top[2] == seen  # own, "new 1", seen


async def test_a_deleted_post_is_no_longer_counted(world: World) -> None:
    reader, friend = await world.user(), await world.user()
    await world.follow(reader, friend)
    seen = await world.post(friend)
    doomed = await world.post(friend, "soon gone")
    await world.settle()
    assert (await new_since(world, reader, seen))["count"] == 1
    await world.client.delete(f"/v1/posts/{doomed}", headers=friend.auth)
    assert await new_since(world, reader, seen) == {"count": 0, "newest_id": None}


async def test_since_zero_counts_from_the_beginning_and_bad_ids_are_refused(
    world: World,
) -> None:
    reader = await world.user()
    first = await world.post(reader)
    assert await new_since(world, reader, "0") == {"count": 1, "newest_id": first}
    for since in ("abc", "-1", ""):
        response = await world.client.get(
            "/v1/feed/new", params={"since": since}, headers=reader.auth
        )
        assert response.status_code == 422, since
    assert (await world.client.get("/v1/feed/new", params={"since": "1"})).status_code == 401


async def test_a_warm_poll_runs_no_sql(world: World) -> None:
    reader, friend = await world.user(), await world.user()
    await world.follow(reader, friend)
    seen = await world.post(friend)
    await world.post(friend, "new")
    await world.settle()
    await new_since(world, reader, seen)  # warms the caches
    with sql_statements() as statements:
        assert (await new_since(world, reader, seen))["count"] == 1
    assert statements == []
