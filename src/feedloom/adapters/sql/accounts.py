"""SqlAccounts: users, their sessions (tokens) and settings."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, String, cast, delete, func, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import among, utc
from feedloom.adapters.sql.outbox import record_event
from feedloom.adapters.sql.schema import (
    account_hidden,
    account_live,
    media,
    oauth_apps,
    tokens,
    users,
)
from feedloom.domain.errors import Conflict
from feedloom.domain.model import AuthorPushed, FeedOrder, Role, UserProfile
from feedloom.ports import AccountRecord, Credentials, ProfileChanges, SessionRecord

SESSION_ID = re.compile(r"^[0-9a-f]{16}$")


class SqlAccounts:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def create_user(
        self, user_id: int, username: str, display_name: str, password_hash: str, now: datetime
    ) -> None:
        row = {
            "id": user_id,
            "username": username,
            "display_name": display_name,
            "password_hash": password_hash,
            "created_at": now,
            "last_active_at": now,
        }
        try:
            async with self._engine.begin() as conn:
                await conn.execute(users.insert().values(row))
        except IntegrityError as error:
            raise Conflict(f"username {username!r} is taken") from error

    async def credentials(self, username: str) -> Credentials | None:
        # Usernames are unique regardless of case (migration 0005): so is signing in.
        query = select(users.c.id, users.c.password_hash).where(
            func.lower(users.c.username) == username.lower(), account_live
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return Credentials(row.id, row.password_hash) if row else None

    async def create_token(
        self,
        token_hash: str,
        user_id: int,
        now: datetime,
        app_id: int | None = None,
        scopes: str | None = None,
    ) -> None:
        row = {"token_hash": token_hash, "user_id": user_id, "created_at": now}
        if app_id is not None:  # an OAuth session (migration 0018)
            row |= {"app_id": app_id, "scopes": scopes}
        async with self._engine.begin() as conn:
            await conn.execute(tokens.insert().values(row))

    async def session_for_token(self, token_hash: str) -> SessionRecord | None:
        query = _with_app(select(tokens, oauth_apps.c.name)).where(
            tokens.c.token_hash == token_hash
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _session(row) if row else None

    async def touch_token(self, token_hash: str, now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(tokens).where(tokens.c.token_hash == token_hash).values(last_used_at=now)
            )

    async def revoke_token(self, token_hash: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(tokens).where(tokens.c.token_hash == token_hash))

    async def sessions_of(self, user_id: int) -> list[SessionRecord]:
        query = (
            _with_app(select(tokens, oauth_apps.c.name))
            .where(tokens.c.user_id == user_id)
            .order_by(tokens.c.created_at.desc(), tokens.c.token_hash)
        )
        async with self._engine.connect() as conn:
            return [_session(row) for row in (await conn.execute(query)).all()]

    async def revoke_other_tokens(self, user_id: int, keep_hash: str) -> list[str]:
        query = (
            delete(tokens)
            .where(tokens.c.user_id == user_id, tokens.c.token_hash != keep_hash)
            .returning(tokens.c.token_hash)
        )
        async with self._engine.begin() as conn:
            return list((await conn.execute(query)).scalars())

    async def revoke_session(self, user_id: int, session_id: str) -> str | None:
        if not SESSION_ID.match(session_id):
            return None
        query = (
            delete(tokens)
            .where(tokens.c.user_id == user_id, tokens.c.token_hash.startswith(session_id))
            .returning(tokens.c.token_hash)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).scalars().first()

    async def credentials_of(self, user_id: int) -> Credentials | None:
        query = select(users.c.id, users.c.password_hash).where(users.c.id == user_id, account_live)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return Credentials(row.id, row.password_hash) if row else None

    async def set_password_hash(self, user_id: int, password_hash: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(users).where(users.c.id == user_id).values(password_hash=password_hash)
            )

    async def release_username(self, username: str, deleted_before: datetime) -> bool:
        # "deleted_<id>": unique by the ID, and it fits the column (8 + 19 characters).
        query = (
            update(users)
            .where(
                func.lower(users.c.username) == username.lower(),
                users.c.deleted_at < deleted_before,
            )
            .values(username=literal("deleted_") + cast(users.c.id, String))
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount > 0

    async def mark_active(self, user_id: int, now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(users).where(users.c.id == user_id).values(last_active_at=now)
            )

    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]:
        if not user_ids:
            return {}
        query = select(
            users.c.id,
            users.c.username,
            users.c.display_name,
            users.c.avatar,
            users.c.followers,
            users.c.following,
            users.c.pulled,
            account_hidden.label("hidden"),
            users.c.deleted_at,
            users.c.bio,
            users.c.flagged_at,
        ).where(among(self._dialect, users.c.id, set(user_ids)))
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {
            row.id: UserProfile(
                id=row.id,
                username=row.username,
                display_name=row.display_name,
                avatar=row.avatar,
                followers=row.followers,
                following=row.following,
                pulled=bool(row.pulled),
                suspended=bool(row.hidden),
                bio=row.bio,
                flagged=row.flagged_at is not None,
                deleted=row.deleted_at is not None,
            )
            for row in rows
        }

    async def update_profile(self, user_id: int, changes: ProfileChanges) -> None:
        values: dict[str, str | None] = {
            name: value
            for name, value in (
                ("display_name", changes.display_name),
                ("bio", changes.bio),
            )
            if value is not None
        }
        if changes.set_avatar:
            values["avatar"] = changes.avatar
        if not values:
            return
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(values))
            if changes.avatar_media_id is not None:  # its sizes will reach this user
                await conn.execute(
                    update(media)
                    .where(media.c.id == changes.avatar_media_id)
                    .values(avatar_of=user_id)
                )

    async def set_pulled(self, user_id: int, pulled: bool, now: datetime) -> None:
        """Pushed again: an outbox event back-fills the recent posts the author's
        followers' timelines missed while pulled (in the same transaction)."""
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(pulled=pulled))
            if not pulled:
                await record_event(conn, AuthorPushed(user_id), now)

    async def feed_order(self, user_id: int) -> FeedOrder | None:
        query = select(users.c.feed_order).where(users.c.id == user_id)
        async with self._engine.connect() as conn:
            value = (await conn.execute(query)).scalar()
        return FeedOrder(value) if value else None

    async def set_feed_order(self, user_id: int, order: FeedOrder | None) -> None:
        value = order.value if order else None
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(feed_order=value))

    # -- an operator's changes (AccountAdmin) ------------------------------------------

    async def account(self, username: str) -> AccountRecord | None:
        query = select(
            users.c.id,
            users.c.username,
            users.c.display_name,
            users.c.role,
            users.c.suspended_at,
            users.c.deleted_at,
        ).where(users.c.username == username)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        role = Role(row.role) if row.role else None
        return AccountRecord(
            row.id, row.username, row.display_name, role, utc(row.suspended_at), utc(row.deleted_at)
        )

    async def user_ids(self, after: int, limit: int) -> list[int]:
        query = (
            select(users.c.id)
            .where(users.c.id > after, users.c.deleted_at.is_(None))
            .order_by(users.c.id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def modify(
        self, user_id: int, display_name: str | None, password_hash: str | None
    ) -> None:
        values = {"display_name": display_name, "password_hash": password_hash}
        changed = {name: value for name, value in values.items() if value is not None}
        if changed:
            async with self._engine.begin() as conn:
                await conn.execute(update(users).where(users.c.id == user_id).values(changed))

    async def set_role(self, user_id: int, role: Role | None) -> None:
        value = role.value if role else None
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(role=value))

    async def set_suspended(self, user_id: int, at: datetime | None) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(suspended_at=at))

    async def set_deleted(self, user_id: int, at: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(deleted_at=at))

    async def revoke_tokens(self, user_id: int) -> list[str]:
        async with self._engine.begin() as conn:
            revoked = await conn.execute(
                delete(tokens).where(tokens.c.user_id == user_id).returning(tokens.c.token_hash)
            )
            return list(revoked.scalars())


def _with_app(query: Select[Any]) -> Select[Any]:
    """The session's OAuth app, if it has one (its name is shown with the session)."""
    return query.select_from(tokens.outerjoin(oauth_apps, oauth_apps.c.id == tokens.c.app_id))


def _session(row: Any) -> SessionRecord:
    created_at = utc(row.created_at) or row.created_at
    return SessionRecord(
        row.token_hash,
        row.user_id,
        created_at,
        utc(row.last_used_at),
        app_name=row.name,
        scopes=row.scopes,
        app_id=row.app_id,
    )
