"""Worker-ID leases on SQLite and PostgreSQL: two live processes never hold one ID."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from feedloom.adapters.sql.leases import LEASED_IDS, SqlWorkerLeases
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store

TTL = timedelta(seconds=60)


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def test_concurrent_acquires_never_hand_out_one_id_twice(store: SqlStore) -> None:
    leases = SqlWorkerLeases(store.engine)
    ids = await asyncio.gather(*(leases.acquire(f"p{n}", TTL, NOW) for n in range(40)))
    assert len(set(ids)) == 40
    assert all(worker_id in LEASED_IDS for worker_id in ids)


async def test_a_wanted_id_is_refused_while_another_live_process_holds_it(
    store: SqlStore,
) -> None:
    leases = SqlWorkerLeases(store.engine)
    assert await leases.acquire("a", TTL, NOW, wanted=7) == 7
    with pytest.raises(RuntimeError, match="worker id 7 is leased"):
        await leases.acquire("b", TTL, NOW, wanted=7)
    await leases.release(7, "a")
    assert await leases.acquire("b", TTL, NOW, wanted=7) == 7


async def test_an_expired_lease_is_taken_over_and_its_old_holder_told_on_renewal(
    store: SqlStore,
) -> None:
    leases = SqlWorkerLeases(store.engine)
    assert await leases.acquire("a", TTL, NOW, wanted=3) == 3
    assert await leases.renew(3, "a", TTL, NOW + TTL / 2)
    later = NOW + TTL * 2  # a stopped past its lease
    assert await leases.acquire("b", TTL, later, wanted=3) == 3
    assert not await leases.renew(3, "a", TTL, later)
    await leases.release(3, "a")  # a's release does not free b's lease
    with pytest.raises(RuntimeError):
        await leases.acquire("c", TTL, later, wanted=3)
