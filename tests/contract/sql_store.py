"""The durable-store adapters on a fresh database of each dialect, for the SQL contract
suites (tests/contract/test_sql_*.py). Each suite declares a `store` fixture over
`SQL_DIALECTS` with `open_sql_store`, so every contract runs on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.accounts import SqlAccounts
from feedloom.adapters.sql.bulk_import import SqlBulkImport
from feedloom.adapters.sql.database import MIGRATIONS_DIR, create_database, migrate
from feedloom.adapters.sql.engagement import SqlEngagement
from feedloom.adapters.sql.graph import SqlSocialGraph
from feedloom.adapters.sql.outbox import SqlOutbox
from feedloom.adapters.sql.posts import SqlPosts
from feedloom.adapters.sql.threads import SqlThreads
from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import Post, Visibility
from tests.servers import POSTGRES_URL, scratch_schema

SQL_DIALECTS = ["sqlite", "postgresql"]
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@dataclass
class SqlStore:
    engine: AsyncEngine
    accounts: SqlAccounts
    posts: SqlPosts
    graph: SqlSocialGraph
    engagement: SqlEngagement
    threads: SqlThreads
    outbox: SqlOutbox
    bulk: SqlBulkImport
    ids: IdGenerator

    async def user(self, name: str) -> int:
        user_id = self.ids.next_id()
        await self.accounts.create_user(user_id, name, name.title(), "hash", NOW)
        return user_id

    def new_post(self, author_id: int, text: str = "hello") -> Post:
        post_id = self.ids.next_id()
        return Post(post_id, author_id, text, Visibility.PUBLIC, created_at_of(post_id))

    async def post(self, author_id: int, text: str = "hello") -> int:
        post = self.new_post(author_id, text)
        await self.posts.create_post(post, None, "request-hash", NOW)
        return post.id

    async def reply(self, author_id: int, parent_id: int, text: str = "yes") -> int:
        """A reply (its parent's author is the store's to fill in)."""
        post = replace(self.new_post(author_id, text), in_reply_to=parent_id)
        await self.posts.create_post(post, None, "request-hash", NOW)
        return post.id


@contextlib.asynccontextmanager
async def open_sql_store(dialect: str, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with contextlib.AsyncExitStack() as stack:
        if dialect == "sqlite":
            engine = create_database(f"sqlite:///{tmp_path / 'store.sqlite3'}")
            await migrate(engine)
        else:
            schema = await stack.enter_async_context(scratch_schema())
            engine = create_database(POSTGRES_URL, schema)
        stack.push_async_callback(engine.dispose)
        yield SqlStore(
            engine=engine,
            accounts=SqlAccounts(engine),
            posts=SqlPosts(engine),
            graph=SqlSocialGraph(engine),
            engagement=SqlEngagement(engine),
            threads=SqlThreads(engine),
            outbox=SqlOutbox(engine),
            bulk=SqlBulkImport(engine),
            ids=IdGenerator(),
        )


@contextlib.asynccontextmanager
async def engine_at_revision(
    revision: str, dialect: str, tmp_path: Path
) -> AsyncIterator[AsyncEngine]:
    """A database migrated up to `revision` only, to test a later migration on old data."""
    async with contextlib.AsyncExitStack() as stack:
        if dialect == "sqlite":
            engine, schema = create_database(f"sqlite:///{tmp_path / 'old.sqlite3'}"), None
        else:
            schema = await stack.enter_async_context(scratch_schema(migrated=False))
            engine = create_database(POSTGRES_URL, schema)
        stack.push_async_callback(engine.dispose)
        async with engine.begin() as conn:
            if schema:
                await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), revision))
        yield engine


def alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config
