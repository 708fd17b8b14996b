"""The home feed's correctness promises, over HTTP, on every feedloom set."""

from __future__ import annotations

from tests.world import World


async def test_your_own_post_is_in_your_feed_before_any_fan_out_ran(world: World) -> None:
    alice = await world.user()
    post_id = await world.post(alice, "first!")
    assert await world.feed_ids(alice) == [post_id]


async def test_a_followed_authors_post_reaches_an_active_followers_feed(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)  # bob is active: his timeline exists
    post_id = await world.post(alice)
    await world.settle()
    assert await world.feed_ids(bob) == [post_id]
    assert world.feedloom.metrics.fanout_timeline_writes._value.get() == 1
