"""SqlMarkers: the Mastodon read markers, kept on the user's row (migration 0026). The
notifications marker is the read marker SqlNotifications.mark_read moves."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import utc
from feedloom.adapters.sql.schema import users
from feedloom.ports import Marker


class SqlMarkers:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def markers(self, user_id: int) -> dict[str, Marker]:
        c = users.c
        query = select(
            c.home_read,
            c.home_read_version,
            c.home_read_at,
            c.notifications_read,
            c.notifications_read_version,
            c.notifications_read_at,
        ).where(c.id == user_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return {}
        found = {
            "home": (row.home_read, row.home_read_version, utc(row.home_read_at)),
            "notifications": (
                row.notifications_read,
                row.notifications_read_version,
                utc(row.notifications_read_at),
            ),
        }
        # Never set: no marker (as Mastodon leaves the timeline out).
        return {
            name: Marker(int(last), int(version), at)
            for name, (last, version, at) in found.items()
            if at is not None
        }

    async def set_home(self, user_id: int, last_read_id: int, at: datetime) -> None:
        query = (
            update(users)
            .where(users.c.id == user_id)
            .values(home_read=last_read_id, home_read_version=users.c.home_read_version + 1)
            .values(home_read_at=at)
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)
