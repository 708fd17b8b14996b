"""Fan-out's guarantees on every backend: an author pushed again is back-filled, a
poison event is set aside without blocking its lane, and nothing is lost when the
queue loses what it held."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from feedloom.ports import Delivery
from tests.world import World


async def test_an_author_pushed_again_has_recent_posts_back_filled(world: World) -> None:
    star = await world.user()
    fans = [await world.user() for _ in range(5)]  # > pull_above (4): pulled
    for fan in fans:
        await world.feed(fan)  # active: their timelines exist
        await world.follow(fan, star)
    while_pulled = await world.post(star, "said while pulled")
    await world.settle()
    for fan in fans[:3]:  # 2 left < push_below (3): pushed again
        await world.client.delete(f"/v1/users/{star.id}/follow", headers=fan.auth)
    assert (await world.client.get("/v1/me", headers=star.auth)).json()["pulled"] is False
    await world.settle()
    for fan in fans[3:]:
        # Served from the home timeline alone: the star is not merged at read time now.
        timeline = await world.feedloom.caches.timelines.read(int(fan.id), None, 10)
        assert timeline is not None and int(while_pulled) in timeline
        assert await world.feed_ids(fan) == [while_pulled]


def poisoned(world: World, poison: str, calls: list[int]) -> None:
    """The worker's fan-out fails for one post whenever it is in the batch."""
    fan_out = world.feedloom.services.worker._fan_out
    original = fan_out.handle

    async def handle(deliveries: Sequence[Delivery]) -> None:
        calls.append(len(deliveries))
        if any(d.event.post_id == int(poison) for d in deliveries):
            raise ValueError(f"cannot fan out {poison}")
        await original(deliveries)

    fan_out.handle = handle  # type: ignore[method-assign]


async def test_a_poison_event_is_set_aside_and_its_batch_still_fans_out(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    before = await world.post(alice, "before")
    poison = await world.post(alice, "poison")
    after = await world.post(alice, "after")
    calls: list[int] = []
    poisoned(world, poison, calls)
    await world.settle()  # returns: the poison event neither loops nor blocks
    timeline = await world.feedloom.caches.timelines.read(int(bob.id), None, 10)
    assert timeline == [int(after), int(before)]  # the poison post stays unfanned
    metrics = world.feedloom.metrics
    assert metrics.dead_letters.labels("default")._value.get() == 1
    [dead] = await world.feedloom.stores.dead_letters.list(0, 10)
    assert (dead.event.post_id, dead.attempts) == (int(poison), 3)
    assert f"ValueError: cannot fan out {poison}" in dead.error
    assert await world.feedloom.stores.outbox.pending() == 0


async def test_a_replayed_dead_letter_is_fanned_out(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    poison = await world.post(alice, "poison")
    calls: list[int] = []
    poisoned(world, poison, calls)
    await world.settle()
    fan_out = world.feedloom.services.worker._fan_out
    del fan_out.handle  # the bug is fixed
    dead = world.feedloom.stores.dead_letters
    [letter] = await dead.list(0, 10)
    assert await dead.replay([letter.id], world.feedloom.runtime.clock()) == 1
    await world.settle()
    timeline = await world.feedloom.caches.timelines.read(int(bob.id), None, 10)
    assert timeline is not None and int(poison) in timeline
    assert await dead.count() == 0


async def test_events_the_queue_lost_are_sent_again_from_the_outbox(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    await world.settle()  # the follow's notification event leaves the outbox first
    posts = [await world.post(alice, f"n{n}") for n in range(5)]
    relay = world.feedloom.services.worker._relay
    assert await relay() == 5  # on the queue...
    await lose_the_queue(world)  # ...which loses them (a failover, a restart)
    monkeypatch.setattr(relay, "_lost_after", relay._lost_after * 0)
    await world.settle()
    assert await world.feed_ids(bob) == posts[::-1]
    assert world.feedloom.metrics.lost_events_resent._value.get() == 5


async def lose_the_queue(world: World) -> None:
    queue: Any = world.feedloom.queue
    inner = getattr(queue, "_inner", queue)
    if hasattr(inner, "_lanes"):  # in-process: what a restarted process has
        fresh = type(inner)()
        inner.__dict__.update(fresh.__dict__)
        return
    keys = inner._keys
    await inner._client.delete(keys.stream("default"), keys.stream("bulk"))
