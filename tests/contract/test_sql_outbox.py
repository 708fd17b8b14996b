"""Outbox contract on SQLite and PostgreSQL: events leave in commit order, only once
(however many relays run), stay until their fan-out is done, and come back when the
stream they were sent into was lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from feedloom.adapters.sql.schema import outbox
from feedloom.domain.model import AccountErased, Event, PostEdited, PostPublished
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store

LATER = NOW + timedelta(minutes=1)


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


def bare(events: list[Event]) -> list[Event]:
    return [replace(event, seq=0) for event in events]


async def test_events_are_claimed_in_commit_order_once_and_kept_until_done(
    store: SqlStore,
) -> None:
    events = await published_posts(store, 5)
    first = await store.outbox.claim_unsent(3, NOW)
    second = await store.outbox.claim_unsent(3, NOW)
    assert await store.outbox.claim_unsent(3, NOW) == []
    assert bare(first + second) == events
    assert await store.outbox.pending() == 5  # sent, not yet fanned out
    await store.outbox.done([event.seq for event in first])
    assert await store.outbox.pending() == 2


async def test_webhook_events_come_back_whole_and_a_seq_is_never_handed_out_twice(
    store: SqlStore,
) -> None:
    """Webhooks key a delivery by its event's seq (domain/webhook_events.py): an emptied
    outbox must not start again at 1 (SQLite's rowid did, before migration 0027)."""
    events: list[Event] = [PostEdited(7, 3), AccountErased(3, 99, "x" * 128)]
    await store.outbox.add(events, NOW)
    claimed = await store.outbox.claim_unsent(10, NOW)
    assert bare(claimed) == events
    await store.outbox.done([event.seq for event in claimed])
    await store.outbox.add(events[:1], NOW)
    [again] = await store.outbox.claim_unsent(10, NOW)
    assert again.seq > max(event.seq for event in claimed)


async def test_sent_events_of_a_lost_stream_are_claimed_again_and_only_those(
    store: SqlStore,
) -> None:
    events = await published_posts(store, 4)
    sent = await store.outbox.claim_unsent(10, NOW)
    await store.outbox.mark_sent([e.seq for e in sent[:2]], "default", "one")
    await store.outbox.mark_sent([e.seq for e in sent[2:]], "bulk", "one")
    await store.outbox.done([sent[0].seq])
    same = {"default": "one", "bulk": "one"}
    assert await store.outbox.claim_lost(same, LATER, 10, LATER) == []
    lost_default = {"default": "two", "bulk": "one"}
    assert bare(await store.outbox.claim_lost(lost_default, LATER, 10, LATER)) == events[1:2]
    # Claimed again but not yet on a stream: too recent to be taken for lost.
    assert await store.outbox.claim_lost(lost_default, LATER, 10, LATER) == []


async def test_a_relay_that_died_before_recording_the_epoch_leaves_its_events_lost(
    store: SqlStore,
) -> None:
    events = await published_posts(store, 2)
    await store.outbox.claim_unsent(10, NOW)  # ...and the process died here
    epochs = {"default": "one", "bulk": "one"}
    assert await store.outbox.claim_lost(epochs, NOW, 10, LATER) == []  # not old enough
    assert bare(await store.outbox.claim_lost(epochs, LATER, 10, LATER)) == events


async def test_oldest_tells_the_age_of_unsent_and_of_sent_events(store: SqlStore) -> None:
    assert await store.outbox.oldest(sent=False) is None
    await published_posts(store, 2)
    assert await store.outbox.oldest(sent=False) is not None
    assert await store.outbox.oldest(sent=True) is None
    await store.outbox.claim_unsent(1, NOW)
    assert await store.outbox.oldest(sent=True) is not None


async def test_concurrent_relays_never_claim_the_same_event(store: SqlStore) -> None:
    events = await published_posts(store, 120)
    claimed: list[Event] = []

    async def relay_until_empty() -> None:
        while batch := await store.outbox.claim_unsent(7, NOW):
            claimed.extend(batch)
            await asyncio.sleep(0.001)

    await asyncio.gather(*(relay_until_empty() for _ in range(4)))
    assert len(claimed) == len(events)
    assert set(bare(claimed)) == set(events)


async def test_a_claim_skips_rows_another_claim_holds_instead_of_waiting(
    postgres_store: SqlStore,
) -> None:
    store = postgres_store
    await published_posts(store, 4)
    async with store.engine.begin() as conn:
        # Another relay's claim in flight: two rows locked.
        held = outbox.select().order_by(outbox.c.seq).limit(2).with_for_update()
        assert len((await conn.execute(held)).all()) == 2
        claim = store.outbox.claim_unsent(10, NOW)
        assert len(await asyncio.wait_for(claim, timeout=60)) == 2  # SKIP LOCKED
