"""BulkImporter contract on SQLite (executemany) and PostgreSQL (COPY): idempotent
loads that end with follow counts and pushed/pulled status recomputed from the edges."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text

from feedloom.ports import NewUser
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


def new_users(store: SqlStore, count: int) -> list[NewUser]:
    return [NewUser(store.ids.next_id(), f"bulk_{i}", f"Bulk {i}", "hash") for i in range(count)]


async def test_a_load_creates_users_and_edges_with_counts_and_pulled_status(
    store: SqlStore,
) -> None:
    people = new_users(store, 5)
    star, *fans = (user.id for user in people)
    edges = [(fan, star) for fan in fans] + [(star, fans[0]), (fans[0], star)]
    loaded: list[int] = []
    await store.bulk.load(people, edges, NOW, lambda followers: followers >= 4, loaded.append)
    assert sum(loaded) == len(people) + len(edges)
    profiles = await store.accounts.profiles([user.id for user in people])
    assert (profiles[star].followers, profiles[star].following, profiles[star].pulled) == (
        4,
        1,
        True,
    )
    assert (profiles[fans[0]].followers, profiles[fans[0]].pulled) == (1, False)
    assert sorted(await store.graph.follower_batch(star, 0, 10)) == sorted(fans)
    assert await store.accounts.credentials("bulk_3") is not None


async def test_a_repeated_load_adds_nothing_twice_and_keeps_registered_users(
    store: SqlStore,
) -> None:
    registered = await store.user("registered")
    people = new_users(store, 3)
    edges = [(people[0].id, people[1].id), (people[2].id, people[1].id)]
    await store.graph.follow(registered, people[1].id, NOW)
    for _ in range(2):
        await store.bulk.load(people, edges + edges[:1], NOW, lambda _followers: False)
    assert (await store.accounts.profiles([people[1].id]))[people[1].id].followers == 3
    assert len(await store.graph.follower_batch(people[1].id, 0, 10)) == 3
    assert (await store.accounts.profiles([registered]))[registered].following == 1


async def test_even_an_empty_load_re_decides_every_accounts_status(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    await store.graph.follow(bob, alice, NOW)
    await store.bulk.load([], [], NOW, lambda followers: followers >= 1)
    profiles = await store.accounts.profiles([alice, bob])
    assert (profiles[alice].pulled, profiles[bob].pulled) == (True, False)


async def test_loaded_rows_store_timestamps_exactly_as_ordinary_writes_do(
    store: SqlStore,
) -> None:
    registered = await store.user("registered")
    loaded = new_users(store, 1)[0]
    await store.graph.follow(registered, loaded.id, NOW)
    await store.bulk.load([loaded], [(loaded.id, registered)], NOW, lambda _followers: False)
    async with store.engine.connect() as conn:
        # Raw column values: SQLite compares timestamps as text, so the format matters.
        stamps = (await conn.execute(text("SELECT created_at FROM users"))).scalars().all()
        edges = (await conn.execute(text("SELECT created_at FROM follows"))).scalars().all()
    assert len(set(stamps)) == 1 and len(stamps) == 2
    assert set(edges) == set(stamps)
