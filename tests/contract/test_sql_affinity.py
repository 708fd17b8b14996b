"""Affinity store contract on SQLite and PostgreSQL: one batched read per reader, online
folds equal to the pure ranking math even under concurrency, and a batch rebuild from
the likes and comments tables."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import event

from feedloom.adapters.sql.affinity import SqlAffinityStore
from feedloom.domain.ids import created_at_of
from feedloom.ranking.affinity import AffinityState, InteractionKind, add_interaction
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store

HALF_LIFE_DAYS = 14.0


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def affinities(store: SqlStore) -> SqlAffinityStore:
    return SqlAffinityStore(store.engine)


async def test_states_are_read_for_many_authors_in_one_query(
    store: SqlStore, affinities: SqlAffinityStore
) -> None:
    reader, liked, other, unknown = 1, 2, 3, 4
    await affinities.add(reader, liked, "like", NOW, HALF_LIFE_DAYS)
    await affinities.add(reader, other, "comment", NOW, HALF_LIFE_DAYS)
    await affinities.add(99, unknown, "like", NOW, HALF_LIFE_DAYS)  # another reader's pair
    statements: list[object] = []
    event.listen(
        store.engine.sync_engine,
        "before_cursor_execute",
        lambda *args: statements.append(args[2]),
    )

    states = await affinities.states(reader, [liked, other, unknown])

    assert states == {
        liked: AffinityState(1.0, NOW),
        other: AffinityState(3.0, NOW),
    }
    assert len(statements) == 1
    assert await affinities.states(reader, []) == {}


async def test_online_adds_fold_exactly_like_the_pure_ranking_math(
    affinities: SqlAffinityStore,
) -> None:
    moments: list[tuple[InteractionKind, datetime]] = [
        ("like", NOW),
        ("comment", NOW + timedelta(days=3)),
        ("like", NOW + timedelta(days=1)),  # arrives late: decayed back, not forward
    ]
    expected: AffinityState | None = None
    for kind, at in moments:
        stored = await affinities.add(7, 8, kind, at, HALF_LIFE_DAYS)
        expected = add_interaction(expected, kind, at, HALF_LIFE_DAYS)
        assert stored == expected
    assert expected is not None
    read = (await affinities.states(7, [8]))[8]
    assert read.updated_at == NOW + timedelta(days=3)
    assert read.raw == pytest.approx(expected.raw, rel=1e-12)


async def test_concurrent_adds_on_one_pair_all_count(affinities: SqlAffinityStore) -> None:
    await asyncio.gather(*(affinities.add(1, 2, "like", NOW, HALF_LIFE_DAYS) for _ in range(8)))
    assert (await affinities.states(1, [2]))[2].raw == pytest.approx(8.0)


async def test_rebuild_recomputes_every_pair_from_likes_and_comments(
    store: SqlStore, affinities: SqlAffinityStore
) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    first, second = await store.post(alice), await store.post(alice)
    later = NOW + timedelta(days=2)
    await store.engagement.like(first, bob, NOW)
    await store.engagement.like(second, bob, later)
    replied_at = created_at_of(await store.reply(carol, first, "hi"))  # its time: its ID
    await store.engagement.like(first, alice, NOW)  # her own post: no affinity with herself
    await store.posts.tombstone(second, later)  # deleted still counts: delete is a filter
    await affinities.add(carol, bob, "like", NOW, HALF_LIFE_DAYS)  # backed by no like row

    pairs = await affinities.rebuild(HALF_LIFE_DAYS)

    assert pairs == 2
    bob_state = add_interaction(add_interaction(None, "like", NOW), "like", later)
    assert await affinities.states(bob, [alice]) == {alice: bob_state}
    assert await affinities.states(carol, [alice, bob]) == {alice: AffinityState(3.0, replied_at)}
    assert await affinities.states(alice, [alice]) == {}
