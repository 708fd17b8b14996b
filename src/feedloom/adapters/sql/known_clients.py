"""SqlKnownClients: where each account signed in from (ports.KnownClients).

One row per (account, client), the last sign-in's time rewritten in place; a sign-in
also drops the account's rows past the window, so an account keeps at most the clients
of its last `known_client_days`. Read only when the per-account sign-in limit is full
(write/sign_in.py), by primary key.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.schema import known_clients


class SqlKnownClients:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert

    async def remember(
        self, user_id: int, client: str, now: datetime, forget_before: datetime
    ) -> None:
        row = {"user_id": user_id, "client": client, "signed_in_at": now}
        upsert = self._insert(known_clients).values(row)
        upsert = upsert.on_conflict_do_update(
            index_elements=[known_clients.c.user_id, known_clients.c.client],
            set_={"signed_in_at": upsert.excluded.signed_in_at},
        )
        stale = delete(known_clients).where(
            known_clients.c.user_id == user_id, known_clients.c.signed_in_at < forget_before
        )
        async with self._engine.begin() as conn:
            await conn.execute(stale)
            await conn.execute(upsert)

    async def knows(self, user_id: int, client: str, since: datetime) -> bool:
        query = select(known_clients.c.signed_in_at).where(
            known_clients.c.user_id == user_id,
            known_clients.c.client == client,
            known_clients.c.signed_in_at >= since,
        )
        async with self._engine.connect() as conn:
            return (await conn.execute(query)).first() is not None
