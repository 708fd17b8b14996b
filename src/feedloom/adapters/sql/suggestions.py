"""SqlSuggestions: whom to suggest following, and the suggestions a user dismissed.

Two sources, each one bounded query:
- Friends of friends: accounts followed by the people the user follows, weighted by how
  many of them follow each. Only the user's newest `FOLLOWEES_READ` follows are walked,
  and of each of those only the newest `PER_FOLLOWEE` follows (index ranges on
  (follower_id, created_at)): at most 5,000 rows counted, whatever the graph's size.
- Popular accounts active lately: read from the top of (followers, id) backward, each
  row checked, until enough pass.

Both leave out the user, whom they follow, block, are blocked by, mute or dismissed,
and suspended or deleted accounts: each check a primary-key probe on the candidates
(`tests/contract/test_sql_suggestions.py` checks the plans on both databases).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, exists, func, not_, select, true
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.schema import (
    account_live,
    blocks,
    follows,
    mutes,
    suggestion_dismissals,
    users,
)
from feedloom.domain.people import Suggested

FOLLOWEES_READ = 100  # the user's newest follows whose follows are counted
PER_FOLLOWEE = 50  # and of each of those, the newest follows


def _left_out(candidate: Any, user_id: int) -> list[ColumnElement[bool]]:
    f, b, m, d = follows.c, blocks.c, mutes.c, suggestion_dismissals.c
    return [
        candidate != user_id,
        not_(exists().where(f.follower_id == user_id, f.followee_id == candidate)),
        not_(exists().where(b.blocker_id == user_id, b.blocked_id == candidate)),
        not_(exists().where(b.blocker_id == candidate, b.blocked_id == user_id)),
        not_(exists().where(m.muter_id == user_id, m.muted_id == candidate)),
        not_(exists().where(d.user_id == user_id, d.dismissed_id == candidate)),
    ]


class SqlSuggestions:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._postgres = engine.dialect.name == "postgresql"

    def friends_of_friends_query(self, user_id: int, limit: int) -> Select[Any]:
        mine = (
            select(follows.c.followee_id)
            .where(follows.c.follower_id == user_id)
            .order_by(follows.c.created_at.desc())
            .limit(FOLLOWEES_READ)
            .subquery("mine")
        )
        pairs = self._recent_follows_of(mine.c.followee_id, mine)
        counted = (
            select(pairs.c.user_id, func.count().label("weight"))
            .group_by(pairs.c.user_id)
            .subquery("counted")
        )
        return (
            select(counted.c.user_id, counted.c.weight)
            .join(users, users.c.id == counted.c.user_id)
            .where(account_live, *_left_out(counted.c.user_id, user_id))
            .order_by(counted.c.weight.desc(), counted.c.user_id)
            .limit(limit)
        )

    def _recent_follows_of(self, followee: Any, mine: Any) -> Any:
        """Each of the user's followees' newest `PER_FOLLOWEE` follows: at most
        FOLLOWEES_READ x PER_FOLLOWEE rows, however many they follow. PostgreSQL reads
        just those (a LATERAL index range each); SQLite, which has no LATERAL, numbers
        each followee's follows and keeps the first (an embedded graph is small)."""
        theirs = follows.alias("theirs")
        if self._postgres:
            recent = (
                select(theirs.c.followee_id.label("user_id"))
                .where(theirs.c.follower_id == followee)
                .order_by(theirs.c.created_at.desc())
                .limit(PER_FOLLOWEE)
                .lateral("recent")
            )
            return select(recent.c.user_id).select_from(mine.join(recent, true())).subquery()
        numbered = (
            select(
                theirs.c.followee_id.label("user_id"),
                func.row_number()
                .over(partition_by=theirs.c.follower_id, order_by=theirs.c.created_at.desc())
                .label("n"),
            )
            .join(mine, theirs.c.follower_id == followee)
            .subquery("numbered")
        )
        return select(numbered.c.user_id).where(numbered.c.n <= PER_FOLLOWEE).subquery()

    def popular_query(self, user_id: int, active_since: datetime, limit: int) -> Select[Any]:
        return (
            select(users.c.id.label("user_id"))
            .where(
                account_live,
                users.c.last_active_at >= active_since,
                *_left_out(users.c.id, user_id),
            )
            # Both descending, so the (followers, id) index is read backward, in order.
            .order_by(users.c.followers.desc(), users.c.id.desc())
            .limit(limit)
        )

    async def suggestions(
        self, user_id: int, active_since: datetime, limit: int
    ) -> list[Suggested]:
        """Friends of friends first (most followed by your followees), then popular
        accounts active since `active_since`; at most `limit`, none twice."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(self.friends_of_friends_query(user_id, limit))).all()
            found = [Suggested(row.user_id, row.weight) for row in rows]
            if len(found) < limit:
                query = self.popular_query(user_id, active_since, limit)
                seen = {s.user_id for s in found}
                for popular in (await conn.execute(query)).scalars():
                    if popular not in seen and len(found) < limit:
                        found.append(Suggested(popular, 0))
        return found

    async def dismiss(self, user_id: int, dismissed_id: int, now: datetime) -> bool:
        insert = pg_insert if self._postgres else sqlite_insert
        query = (
            insert(suggestion_dismissals)
            .values(user_id=user_id, dismissed_id=dismissed_id, created_at=now)
            .on_conflict_do_nothing()
        )
        async with self._engine.begin() as conn:
            return bool((await conn.execute(query)).rowcount)
