"""Outbox contract on SQLite and PostgreSQL: events leave in commit order, only once
(however many relays run), and only when publishing succeeded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from feedloom.domain.model import Event, PostPublished
from tests.contract.sql_store import SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
async def postgres_store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store("postgresql", tmp_path) as opened:
        yield opened


async def published_posts(store: SqlStore, count: int) -> list[Event]:
    author = await store.user("author")
    return [PostPublished(await store.post(author), author) for _ in range(count)]


class PublishFailed(Exception):
    pass


async def test_the_relay_hands_out_events_in_commit_order_and_then_has_none(
    store: SqlStore,
) -> None:
    events = await published_posts(store, 5)
    handed: list[list[Event]] = []

    async def publish(batch: Sequence[Event]) -> None:
        handed.append(list(batch))

    assert await store.outbox.relay(publish, 3) == 3
    assert await store.outbox.relay(publish, 3) == 2
    assert await store.outbox.relay(publish, 3) == 0
    assert handed == [events[:3], events[3:]]
    assert await store.outbox.pending() == 0


async def test_a_failed_publish_leaves_every_event_in_the_outbox(store: SqlStore) -> None:
    events = await published_posts(store, 4)

    async def fail(_batch: Sequence[Event]) -> None:
        raise PublishFailed

    with pytest.raises(PublishFailed):
        await store.outbox.relay(fail, 10)
    assert await store.outbox.pending() == 4
    handed: list[Event] = []

    async def publish(batch: Sequence[Event]) -> None:
        handed.extend(batch)

    assert await store.outbox.relay(publish, 10) == 4
    assert handed == events


async def test_concurrent_relays_never_hand_out_the_same_event(store: SqlStore) -> None:
    events = await published_posts(store, 120)
    handed: list[Event] = []

    async def publish(batch: Sequence[Event]) -> None:
        await asyncio.sleep(0.001)  # hold the claim while the other relays run
        handed.extend(batch)

    async def relay_until_empty() -> None:
        while await store.outbox.relay(publish, 7):
            pass

    await asyncio.gather(*(relay_until_empty() for _ in range(4)))
    assert len(handed) == len(events)
    assert set(handed) == set(events)


async def test_a_relay_skips_events_another_relay_holds_instead_of_waiting(
    postgres_store: SqlStore,
) -> None:
    store = postgres_store
    events = await published_posts(store, 4)
    holding, release = asyncio.Event(), asyncio.Event()
    first: list[Event] = []

    async def slow_publish(batch: Sequence[Event]) -> None:
        first.extend(batch)
        holding.set()
        await release.wait()

    async def quick_publish(batch: Sequence[Event]) -> None:
        second.extend(batch)

    second: list[Event] = []
    slow = asyncio.create_task(store.outbox.relay(slow_publish, 2))
    await holding.wait()
    # SKIP LOCKED: the second relay takes the unclaimed rows at once; a plain
    # FOR UPDATE would block here until the first relay commits.
    assert await asyncio.wait_for(store.outbox.relay(quick_publish, 10), timeout=5) == 2
    release.set()
    assert await slow == 2
    assert (first, second) == (events[:2], events[2:])
    assert await store.outbox.pending() == 0
