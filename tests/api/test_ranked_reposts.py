"""Reposts in the ranked home feed over /v1, on every backend: a ranked session shows
each original once, by the chronological feed's rule (domain/reposts.py)."""

from __future__ import annotations

import pytest

from tests.api.ranked import generous_ranker_budget, ranked_session
from tests.world import World


@pytest.fixture(autouse=True)
def _generous_ranker_budget(world: World) -> None:
    generous_ranker_budget(world)


async def test_a_ranked_session_shows_an_original_reposted_by_several_followees_once(
    world: World,
) -> None:
    alice, reader = await world.user(), await world.user()
    reposters = [await world.user() for _ in range(3)]
    await world.follow(reader, alice)
    for reposter in reposters:
        await world.follow(reader, reposter)
    shared = await world.post(alice, "shared")
    fillers = [await world.post(alice, f"filler {i}") for i in range(45)]
    for reposter in reposters:
        put = await world.client.put(f"/v1/posts/{shared}/repost", headers=reposter.auth)
        assert put.json() == {"changed": True}
    await world.settle()
    served = await ranked_session(world, reader, limit=10)
    assert served.count(shared) == 1
    assert set(fillers) <= set(served)
    assert len(served) == len(set(served))


async def test_a_ranked_session_skips_a_repost_of_a_post_just_below_it(world: World) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, alice)
    await world.follow(reader, bob)
    fresh = await world.post(alice, "fresh")
    await world.post(bob, "bob's own")
    await world.client.put(f"/v1/posts/{fresh}/repost", headers=bob.auth)
    await world.settle()
    page = await world.feed(reader, order="ranked")
    assert page["order"] == "ranked"
    shown = [(item["post_id"], item["reposted_by"]) for item in page["items"]]
    assert shown.count((fresh, None)) == 1
    assert [post_id for post_id, _ in shown].count(fresh) == 1
