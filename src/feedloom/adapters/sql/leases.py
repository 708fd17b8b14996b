"""SqlWorkerLeases: Snowflake worker IDs leased in the database every process shares.

A lease is one row per worker ID; taking one is a single conditional upsert (insert, or
take over a row whose lease expired), so two processes racing for the same ID cannot
both win: the loser's statement changes no row and it tries the next ID."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.schema import worker_leases

LEASED_IDS = range(0, 1016)  # 1016-1023 stay for tools that mint on their own (demo, bench)


class SqlWorkerLeases:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def acquire(
        self, holder: str, ttl: timedelta, now: datetime, wanted: int | None = None
    ) -> int:
        async with self._engine.begin() as conn:
            live = await self._live(conn, now)
            candidates = [wanted] if wanted is not None else _shuffled_free(live)
            for worker_id in candidates:
                if worker_id not in live and await self._take(conn, worker_id, holder, ttl, now):
                    return worker_id
        if wanted is not None:
            raise RuntimeError(f"worker id {wanted} is leased by another running process")
        raise RuntimeError("every Snowflake worker id is leased: too many processes")

    async def renew(self, worker_id: int, holder: str, ttl: timedelta, now: datetime) -> bool:
        query = (
            update(worker_leases)
            .where(worker_leases.c.worker_id == worker_id, worker_leases.c.holder == holder)
            .values(expires_at=now + ttl)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def release(self, worker_id: int, holder: str) -> None:
        query = delete(worker_leases).where(
            worker_leases.c.worker_id == worker_id, worker_leases.c.holder == holder
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)

    async def _live(self, conn: AsyncConnection, now: datetime) -> set[int]:
        query = select(worker_leases.c.worker_id).where(worker_leases.c.expires_at > now)
        return set((await conn.execute(query)).scalars())

    async def _take(
        self, conn: AsyncConnection, worker_id: int, holder: str, ttl: timedelta, now: datetime
    ) -> bool:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        row = {"worker_id": worker_id, "holder": holder, "expires_at": now + ttl}
        query = (
            dialect.insert(worker_leases)
            .values(row)
            .on_conflict_do_update(
                index_elements=[worker_leases.c.worker_id],
                set_={"holder": holder, "expires_at": now + ttl},
                where=worker_leases.c.expires_at <= now,
            )
            .returning(worker_leases.c.worker_id)
        )
        return (await conn.execute(query)).first() is not None


def _shuffled_free(live: set[int]) -> list[int]:
    # Random order: processes starting together rarely try the same ID first.
    free = [worker_id for worker_id in LEASED_IDS if worker_id not in live]
    random.shuffle(free)
    return free
