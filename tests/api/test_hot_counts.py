"""A hot post's like count, on every backend: batched and sharded while likes pour
in, never stepping back for a reader while the flusher runs, and exact once flushed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from feedloom.settings import Settings
from tests.conftest import shrunk_settings
from tests.world import User, World

LIKERS = 40
READERS = 3


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # Hot from its first like, whatever the machine's speed; a flush every 10 ms, so
    # many land while the likes and reads below run; cooling takes 10 s of quiet.
    fast = {"counter_flush_ms": 10, "counter_hot_per_flush": 1, "counter_cool_flushes": 1_000}
    return shrunk_settings(tmp_path).model_copy(update=fast)


async def shown_likes(world: World, reader: User, post_id: str) -> int:
    response = await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)
    assert response.status_code == 200, response.text
    likes: int = response.json()["likes"]
    return likes


async def test_the_shown_count_of_a_hot_post_never_steps_back_while_flushes_run(
    world: World,
) -> None:
    author = await world.user()
    post_id = await world.post(author)
    likers = [await world.user() for _ in range(LIKERS)]
    readers = [await world.user() for _ in range(READERS)]
    liked = 0

    async def like_all() -> None:
        nonlocal liked
        for liker in likers:
            liked += 1  # before: the like may be counted while its request runs
            response = await world.client.put(f"/v1/posts/{post_id}/like", headers=liker.auth)
            assert response.status_code == 200, response.text

    async def read_until_done(reader: User, liking: asyncio.Task[None]) -> list[tuple[int, int]]:
        seen = []
        while not liking.done():
            seen.append((await shown_likes(world, reader, post_id), liked))
            # A pause, so reads cannot starve the likes on one event loop (embedded).
            await asyncio.sleep(0.01)
        return seen

    liking = asyncio.create_task(like_all())
    seen_by = await asyncio.gather(*(read_until_done(reader, liking) for reader in readers))
    await liking

    hot_posts = world.feedloom.metrics.registry.get_sample_value("feedloom_counter_hot_posts")
    assert hot_posts == 1  # batched and sharded, not written through
    for seen in seen_by:
        shown = [count for count, _ in seen]
        assert shown == sorted(shown), shown
        assert all(count <= likes for count, likes in seen)
    await world.settle()
    for reader in readers:
        assert await shown_likes(world, reader, post_id) == LIKERS
