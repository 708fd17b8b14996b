"""SqlAffinityStore: per (reader, author) affinity state, read in one batch per feed.

Online updates are a compare-and-set on the row: read (raw, updated_at), fold the new
interaction in with the pure `add_interaction`, and write only if the row is still what
was read; a lost race re-reads and retries. No lock is held between the two statements,
so this works the same on SQLite (one writer, no row locks) and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates, utc
from feedloom.adapters.sql.schema import affinities, likes, posts
from feedloom.domain.ids import created_at_of
from feedloom.ports import StageProgress
from feedloom.ranking.affinity import AffinityState, InteractionKind, add_interaction

# Races on one (reader, author) pair need the same reader acting twice at once; a few
# retries are plenty, and running out is an error rather than a silently lost like.
MAX_ATTEMPTS = 20
BATCH_ROWS = 5_000


class AffinityUpdateLost(RuntimeError):
    """Every compare-and-set attempt lost a race (a pathological burst on one pair)."""


class SqlAffinityStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def states(self, reader_id: int, author_ids: Sequence[int]) -> dict[int, AffinityState]:
        if not author_ids:
            return {}
        query = select(affinities.c.author_id, affinities.c.raw, affinities.c.updated_at).where(
            affinities.c.reader_id == reader_id, affinities.c.author_id.in_(set(author_ids))
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {row.author_id: _state(row) for row in rows}

    async def add(
        self,
        reader_id: int,
        author_id: int,
        kind: InteractionKind,
        at: datetime,
        half_life_days: float,
    ) -> AffinityState:
        pair = and_(affinities.c.reader_id == reader_id, affinities.c.author_id == author_id)
        for _ in range(MAX_ATTEMPTS):
            # Read and write on one pooled connection: a checkout costs more than either
            # statement. The plain SELECT takes no lock, so the compare-and-set below still
            # decides a race exactly as with two connections.
            async with self._engine.begin() as conn:
                row = (await conn.execute(select(affinities).where(pair))).first()
                new = add_interaction(_state(row) if row else None, kind, at, half_life_days)
                if (
                    await conn.execute(_write(self._dialect, reader_id, author_id, row, new))
                ).rowcount == 1:
                    return new
        raise AffinityUpdateLost(
            f"affinity of reader {reader_id} for author {author_id} changed under "
            f"{MAX_ATTEMPTS} attempts in a row"
        )

    async def rebuild(self, half_life_days: float, progress: StageProgress | None = None) -> int:
        """Fold every like and comment on someone else's post into fresh states, then
        swap the whole table in the same transaction (readers see old or new, never
        half). Likes made while it runs may be missed until the next rebuild; the online
        path writes them, but the swap can overwrite that write."""
        progress = progress or _Silent()
        async with self._engine.begin() as conn:
            states = await _fold_interactions(conn, half_life_days, progress)
            await conn.execute(delete(affinities))
            rows = [
                {"reader_id": reader, "author_id": author, "raw": s.raw, "updated_at": s.updated_at}
                for (reader, author), s in states.items()
            ]
            progress.stage("writing affinities", len(rows))
            for start in range(0, len(rows), BATCH_ROWS):
                batch = rows[start : start + BATCH_ROWS]
                await conn.execute(affinities.insert(), batch)
                progress.advance(len(batch))
        return len(states)


class _Silent:
    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, done: int) -> None:
        pass


async def _fold_interactions(
    conn: AsyncConnection, half_life_days: float, progress: StageProgress
) -> dict[tuple[int, int], AffinityState]:
    like_rows = (
        select(likes.c.user_id, posts.c.author_id, likes.c.created_at)
        .join(posts, posts.c.id == likes.c.post_id)
        .where(likes.c.user_id != posts.c.author_id)
    )
    # A comment is a live reply; its time is in its ID.
    reply = posts.alias("reply")
    comment_rows = (
        select(reply.c.author_id, posts.c.author_id, reply.c.id)
        .join(posts, posts.c.id == reply.c.in_reply_to)
        .where(reply.c.author_id != posts.c.author_id, reply.c.deleted_at.is_(None))
    )
    sources: list[tuple[InteractionKind, Select[Any]]] = [
        ("like", like_rows),
        ("comment", comment_rows),
    ]
    states: dict[tuple[int, int], AffinityState] = {}
    # Deleted posts count too: the interaction happened, and the online path counted it.
    for kind, query in sources:
        total = (await conn.execute(select(func.count()).select_from(query.subquery()))).scalar()
        progress.stage(f"folding {kind}s", total or 0)
        result = await conn.stream(query)
        async for chunk in result.partitions(BATCH_ROWS):
            progress.advance(len(chunk))
            for reader, author, created_at in chunk:
                key = (reader, author)
                at = _moment(created_at)
                states[key] = add_interaction(states.get(key), kind, at, half_life_days)
    return states


def _moment(value: datetime | int) -> datetime:
    """A like's stored time, or a reply's, from its ID."""
    if isinstance(value, int):
        return created_at_of(value)
    return utc(value) or value


def _state(row: Any) -> AffinityState:
    return AffinityState(raw=row.raw, updated_at=utc(row.updated_at) or row.updated_at)


def _write(dialect: str, reader_id: int, author_id: int, row: Any, new: AffinityState) -> Any:
    """Insert the pair's first state, or replace the state only if it is still `row`."""
    values = {"raw": new.raw, "updated_at": new.updated_at}
    if row is None:
        return insert_ignoring_duplicates(dialect, affinities).values(
            reader_id=reader_id, author_id=author_id, **values
        )
    # Compare with the values exactly as read back, so the equality holds on both
    # dialects (SQLite returns naive timestamps; see database.utc).
    pair = and_(affinities.c.reader_id == reader_id, affinities.c.author_id == author_id)
    unchanged = and_(pair, affinities.c.raw == row.raw, affinities.c.updated_at == row.updated_at)
    return update(affinities).where(unchanged).values(**values)
