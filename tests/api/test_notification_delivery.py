"""Notification events are folded exactly once, on every backend: a batch delivered
again (its worker died after folding, before acknowledging) counts nothing twice, and
a batch whose worker died before folding loses nothing."""

from __future__ import annotations

from feedloom.domain.notifications import Notified
from tests.api.test_notifications import items, like
from tests.world import World


async def test_a_batch_delivered_again_after_its_fold_committed_counts_once(
    world: World,
) -> None:
    author = await world.user()
    fans = [await world.user() for _ in range(5)]
    post = await world.post(author)
    await world.settle()
    for fan in fans:
        await like(world, fan, post)
    await world.client.put(f"/v1/users/{author.id}/follow", headers=fans[0].auth)
    worker, queue = world.feedloom.services.worker, world.feedloom.queue
    relay = worker._relay
    assert await relay() == 6
    deliveries = await queue.consume("default", "dies", 100, block_ms=1)
    assert all(isinstance(d.event, Notified) for d in deliveries) and len(deliveries) == 6
    # The fold commits, then the worker dies: no ack, no outbox `done`.
    await worker.handle_batch(deliveries[:3])
    assert worker.notifications is not None
    await worker.notifications.handle(deliveries[3:])
    # Delivered again, the whole batch: what was folded is not folded twice.
    await worker.handle_batch(deliveries)
    found = {item["type"]: item["accounts_count"] for item in await items(world, author)}
    assert found == {"like": 5, "follow": 1}
    assert await world.feedloom.stores.notifications.pending() == 0


async def test_a_batch_whose_worker_died_before_folding_is_folded_by_the_next(
    world: World,
) -> None:
    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await world.settle()
    await like(world, fan, post)
    worker, queue = world.feedloom.services.worker, world.feedloom.queue
    assert await worker._relay() == 1
    taken = await queue.consume("default", "dies", 100, block_ms=1)
    assert len(taken) == 1  # ... and its worker died holding it, folding nothing
    assert await world.feedloom.stores.notifications.pending() == 1
    await worker.handle_batch(taken)  # the survivor's claim of the same delivery
    [item] = await items(world, author)
    assert item["accounts_count"] == 1


async def test_a_warm_notifications_page_and_unread_count_issue_no_durable_store_statement(
    world: World,
) -> None:
    from tests.api.test_warm_reads import statements

    author, fan = await world.user(), await world.user()
    post = await world.post(author)
    await like(world, fan, post)
    await world.follow(fan, author)
    assert len(await items(world, author)) == 2  # fills every cache the read uses
    await world.client.get("/v1/notifications/unread_count", headers=author.auth)
    with statements() as seen:
        page = await world.client.get("/v1/notifications", headers=author.auth)
        unread = await world.client.get("/v1/notifications/unread_count", headers=author.auth)
    assert seen == []
    assert len(page.json()["items"]) == 2 and unread.json()["unread_count"] == 2
