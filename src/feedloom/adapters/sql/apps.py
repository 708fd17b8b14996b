"""SqlApps: apps and their keys, the audit log, external IDs and the bulk writes of
the apps' batches (write/app_users.py, write/app_follows.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.app_tables import app_audit, app_users, apps
from feedloom.adapters.sql.database import among, insert_ignoring_duplicates, utc
from feedloom.adapters.sql.schema import account_hidden, blocks, follows, users
from feedloom.domain.apps import App, parse_scopes
from feedloom.ports.apps import AppUserRow, FollowOp, FollowsApplied, UpsertedUser

# Not an argon2 hash: verifying a password against it always fails (write/passwords.py),
# so an app's user cannot sign in with a password; app tokens are its way in.
NO_PASSWORD = "!app"


class SqlApps:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def create_app(self, app: App, key_hash: str) -> None:
        row = {
            "id": app.app_id,
            "name": app.name,
            "scopes": ",".join(sorted(app.scopes)),
            "key_hash": key_hash,
            "token_secret": app.token_secret,
            "algorithms": ",".join(app.algorithms),
            "jwks": app.jwks,
            "jwks_url": app.jwks_url,
            "create_users": app.create_users,
            "created_at": app.created_at,
        }
        async with self._engine.begin() as conn:
            await conn.execute(apps.insert().values(row))

    async def app(self, app_id: int) -> App | None:
        return await self._one(select(apps).where(apps.c.id == app_id))

    async def app_by_key(self, key_hash: str) -> App | None:
        return await self._one(select(apps).where(apps.c.key_hash == key_hash))

    async def apps(self) -> list[App]:
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(apps).order_by(apps.c.id))).all()
        return [_app(row) for row in rows]

    async def replace_key(self, app_id: int, key_hash: str, now: datetime) -> str | None:
        live = (apps.c.id == app_id) & apps.c.revoked_at.is_(None)
        async with self._engine.begin() as conn:
            old = (await conn.execute(select(apps.c.key_hash).where(live))).scalar()
            if old is not None:
                change = update(apps).where(live).values(key_hash=key_hash, rotated_at=now)
                await conn.execute(change)
        return old

    async def revoke(self, app_id: int, now: datetime) -> str | None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(apps)
                .where(apps.c.id == app_id, apps.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            return (await conn.execute(select(apps.c.key_hash).where(apps.c.id == app_id))).scalar()

    async def audit(self, app_id: int, action: str, now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(app_audit.insert().values(app_id=app_id, action=action, at=now))

    async def audit_log(self, app_id: int, limit: int) -> list[tuple[str, datetime]]:
        query = (
            select(app_audit.c.action, app_audit.c.at)
            .where(app_audit.c.app_id == app_id)
            .order_by(app_audit.c.id.desc())
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [(row.action, utc(row.at) or row.at) for row in await conn.execute(query)]

    async def users_of(self, app_id: int, external_ids: Sequence[str]) -> dict[str, int]:
        if not external_ids:
            return {}
        async with self._engine.connect() as conn:
            return await _links(conn, app_id, external_ids)

    async def upsert_users(
        self, app_id: int, rows: Sequence[AppUserRow], now: datetime
    ) -> list[UpsertedUser]:
        async with self._engine.begin() as conn:
            links = await _links(conn, app_id, [row.external_id for row in rows])
            holders = await _username_holders(conn, [row.username for row in rows])
            current = await _current_profiles(conn, self._dialect, list(links.values()))
            results, new_users, new_links, changes = [], [], [], []
            for row in rows:
                user_id = links.get(row.external_id, row.user_id)
                holder = holders.get(row.username.lower())
                if holder is not None and holder != user_id:
                    results.append(UpsertedUser(user_id, False, False, "username is taken"))
                    continue
                holders[row.username.lower()] = user_id
                fields = {
                    "username": row.username,
                    "display_name": row.display_name,
                    "avatar": row.avatar,
                }
                if row.external_id not in links:
                    new_users.append(_new_user(row, now))
                    new_links.append(
                        {"app_id": app_id, "external_id": row.external_id, "user_id": user_id}
                    )
                    links[row.external_id] = user_id
                    results.append(UpsertedUser(user_id, True, True))
                    continue
                changed = current.get(user_id) != fields
                if changed:
                    changes.append({"uid": user_id, **fields})
                    current[user_id] = fields
                results.append(UpsertedUser(user_id, False, changed))
            await _write_users(conn, new_users, new_links, changes)
        return results

    async def apply_follows(self, ops: Sequence[FollowOp], now: datetime) -> FollowsApplied:
        pairs = [(op.follower_id, op.followee_id) for op in ops]
        async with self._engine.begin() as conn:
            blocked = await _blocked_pairs(conn, self._dialect, pairs)
            blocked |= await _hidden_pairs(conn, self._dialect, ops)
            wanted = [op for op in ops if (op.follower_id, op.followee_id) not in blocked]
            made = await _insert_follows(conn, self._dialect, [o for o in wanted if o.follow], now)
            gone = await _delete_follows(conn, [o for o in wanted if not o.follow])
            pulled = await _adjust_counts(conn, made, gone)
        return FollowsApplied(
            changed=[
                pair in (made if op.follow else gone) for op, pair in zip(ops, pairs, strict=True)
            ],
            blocked=[pair in blocked for pair in pairs],
            pulled=pulled,
        )

    async def _one(self, query: Any) -> App | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _app(row) if row is not None else None


def _app(row: Any) -> App:
    return App(
        app_id=row.id,
        name=row.name,
        scopes=parse_scopes(row.scopes),
        token_secret=row.token_secret,
        algorithms=tuple(row.algorithms.split(",")),
        jwks=row.jwks,
        jwks_url=row.jwks_url,
        create_users=bool(row.create_users),
        created_at=utc(row.created_at) or row.created_at,
        revoked_at=utc(row.revoked_at),
    )


async def _links(conn: AsyncConnection, app_id: int, external_ids: Sequence[str]) -> dict[str, int]:
    query = select(app_users.c.external_id, app_users.c.user_id).where(
        app_users.c.app_id == app_id, app_users.c.external_id.in_(set(external_ids))
    )
    return {row.external_id: row.user_id for row in await conn.execute(query)}


async def _username_holders(conn: AsyncConnection, usernames: Sequence[str]) -> dict[str, int]:
    lowered = {name.lower() for name in usernames}
    query = select(func.lower(users.c.username).label("name"), users.c.id).where(
        func.lower(users.c.username).in_(lowered)
    )
    return {row.name: row.id for row in await conn.execute(query)}


async def _current_profiles(
    conn: AsyncConnection, dialect: str, user_ids: list[int]
) -> dict[int, dict[str, Any]]:
    if not user_ids:
        return {}
    query = select(users.c.id, users.c.username, users.c.display_name, users.c.avatar).where(
        among(dialect, users.c.id, user_ids)
    )
    return {
        row.id: {"username": row.username, "display_name": row.display_name, "avatar": row.avatar}
        for row in await conn.execute(query)
    }


def _new_user(row: AppUserRow, now: datetime) -> dict[str, Any]:
    return {
        "id": row.user_id,
        "username": row.username,
        "display_name": row.display_name,
        "avatar": row.avatar,
        "password_hash": NO_PASSWORD,
        "created_at": now,
        "last_active_at": now,
    }


async def _write_users(
    conn: AsyncConnection,
    new_users: list[dict[str, Any]],
    new_links: list[dict[str, Any]],
    changes: list[dict[str, Any]],
) -> None:
    if new_users:
        await conn.execute(users.insert(), new_users)
        await conn.execute(app_users.insert(), new_links)
    if changes:
        statement = (
            update(users)
            .where(users.c.id == bindparam("uid"))
            .values(
                username=bindparam("username"),
                display_name=bindparam("display_name"),
                avatar=bindparam("avatar"),
            )
        )
        await conn.execute(statement, changes)


async def _blocked_pairs(
    conn: AsyncConnection, dialect: str, pairs: Sequence[tuple[int, int]]
) -> set[tuple[int, int]]:
    if not pairs:
        return set()
    everyone = {user_id for pair in pairs for user_id in pair}
    query = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        among(dialect, blocks.c.blocker_id, everyone),
        among(dialect, blocks.c.blocked_id, everyone),
    )
    found = {(row.blocker_id, row.blocked_id) for row in await conn.execute(query)}
    either = found | {(b, a) for a, b in found}
    return {pair for pair in pairs if pair in either}


async def _hidden_pairs(
    conn: AsyncConnection, dialect: str, ops: Sequence[FollowOp]
) -> set[tuple[int, int]]:
    """Rows refused for a suspended (or erased) account, as a single follow is
    (write/relations.py): its own follows and unfollows, and a follow of it. An unfollow
    of it stands: the suspension may end, and the follow must not come back with it."""
    everyone = {user_id for op in ops for user_id in (op.follower_id, op.followee_id)}
    if not everyone:
        return set()
    query = select(users.c.id).where(among(dialect, users.c.id, everyone), account_hidden)
    hidden = set((await conn.execute(query)).scalars())
    if not hidden:
        return set()
    return {
        (op.follower_id, op.followee_id)
        for op in ops
        if op.follower_id in hidden or (op.follow and op.followee_id in hidden)
    }


async def _insert_follows(
    conn: AsyncConnection, dialect: str, ops: Sequence[FollowOp], now: datetime
) -> set[tuple[int, int]]:
    if not ops:
        return set()
    rows = [
        {"follower_id": o.follower_id, "followee_id": o.followee_id, "created_at": now} for o in ops
    ]
    insert = insert_ignoring_duplicates(dialect, follows).values(rows)
    made = await conn.execute(insert.returning(follows.c.follower_id, follows.c.followee_id))
    return {(row.follower_id, row.followee_id) for row in made}


async def _delete_follows(conn: AsyncConnection, ops: Sequence[FollowOp]) -> set[tuple[int, int]]:
    if not ops:
        return set()
    pairs = [(o.follower_id, o.followee_id) for o in ops]
    gone = await conn.execute(
        delete(follows)
        .where(tuple_(follows.c.follower_id, follows.c.followee_id).in_(pairs))
        .returning(follows.c.follower_id, follows.c.followee_id)
    )
    return {(row.follower_id, row.followee_id) for row in gone}


async def _adjust_counts(
    conn: AsyncConnection, made: set[tuple[int, int]], gone: set[tuple[int, int]]
) -> dict[int, tuple[int, bool]]:
    """Counts moved by what changed; rows updated in ID order (as graph.py does, so two
    batches never wait for each other's rows). Returns each followee whose count moved,
    with its count and pushed/pulled status."""
    delta: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # user -> [followers, following]
    for pairs, sign in ((made, 1), (gone, -1)):
        for follower, followee in pairs:
            delta[followee][0] += sign
            delta[follower][1] += sign
    changes = [
        {"uid": user_id, "df": moved[0], "dg": moved[1]}
        for user_id, moved in sorted(delta.items())
        if moved != [0, 0]
    ]
    if not changes:
        return {}
    statement = (
        update(users)
        .where(users.c.id == bindparam("uid"))
        .values(
            followers=users.c.followers + bindparam("df"),
            following=users.c.following + bindparam("dg"),
        )
    )
    await conn.execute(statement, changes)
    followees = [change["uid"] for change in changes if change["df"]]
    if not followees:
        return {}
    query = select(users.c.id, users.c.followers, users.c.pulled).where(users.c.id.in_(followees))
    return {row.id: (row.followers, bool(row.pulled)) for row in await conn.execute(query)}
