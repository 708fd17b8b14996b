"""Idempotency-Key rows (`idempotency_keys`), shared by posts and comments: claimed
first in the write's own transaction, so a concurrent retry with the same key fails
on the primary key before anything else is written."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.schema import idempotency_keys
from feedloom.ports import StoredResponse

Kind = Literal["post", "comment", "edit"]


async def claim_key(
    conn: AsyncConnection,
    user_id: int,
    key: str,
    request_hash: str,
    result_id: int,
    kind: Kind,
    now: datetime,
) -> None:
    await conn.execute(
        idempotency_keys.insert().values(
            user_id=user_id,
            key=key,
            request_hash=request_hash,
            post_id=result_id,
            kind=kind,
            created_at=now,
        )
    )


async def stored_response(engine: AsyncEngine, user_id: int, key: str) -> StoredResponse | None:
    query = select(
        idempotency_keys.c.request_hash, idempotency_keys.c.post_id, idempotency_keys.c.kind
    ).where(idempotency_keys.c.user_id == user_id, idempotency_keys.c.key == key)
    async with engine.connect() as conn:
        row = (await conn.execute(query)).first()
    return StoredResponse(row.request_hash, row.post_id, row.kind) if row else None
