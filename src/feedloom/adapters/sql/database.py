"""Engine, dialect helpers and migrations for the one SQL adapter (SQLite and
PostgreSQL). Nothing connects at import: bootstrap calls `create_database`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import BigInteger, ColumnElement, Connection, Table, any_, event, literal, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql.dml import Insert

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
POOL_CONNECTIONS = 30  # per process (PostgreSQL): docs/PRODUCTION.md, sizing notes


class NotMigrated(RuntimeError):
    """The database schema is older than this code: run `feedloom migrate`."""


def async_url(url: str) -> str:
    """Accept the plain URLs people write and pick the async driver for them."""
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def create_database(url: str, schema: str | None = None, wait_s: float = 30.0) -> AsyncEngine:
    """`wait_s` bounds every wait for the database (a connection from the pool, a new
    connection, SQLite's write lock): past it the call fails as an outage (outages.py)."""
    url = async_url(url)
    if url.startswith("sqlite"):
        # No cap on connections: a transaction holding SQLite's one write lock (the
        # outbox relay, say) must never wait for a pooled connection held by requests
        # that are themselves waiting for that lock. SQLite connections are cheap.
        engine = create_async_engine(
            url, connect_args={"timeout": wait_s}, pool_size=10, max_overflow=-1
        )
        event.listen(engine.sync_engine, "connect", partial(_sqlite_pragmas, wait_s))
        return engine
    connect_args: dict[str, Any] = {"timeout": wait_s}
    if schema:
        connect_args["server_settings"] = {"search_path": schema}
    # Every connection the pool opens stays open: with an overflow above a smaller
    # pool, a burst of concurrent requests opens connections that are closed again as
    # soon as the burst dips (the overflow is discarded on return while the pool is
    # full), so a busy process kept paying a new connection (TCP, TLS negotiation,
    # startup) per few requests: a third of the like path's CPU (docs/BENCHMARKS.md).
    return create_async_engine(
        url,
        pool_size=POOL_CONNECTIONS,
        max_overflow=0,
        pool_timeout=wait_s,
        connect_args=connect_args,
    )


def _sqlite_pragmas(wait_s: float, dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers proceed while the one writer commits; NORMAL sync is durable
    # across process crashes (only an OS crash can lose the last transactions).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={int(wait_s * 1000)}")
    cursor.execute("PRAGMA foreign_keys=OFF")
    cursor.close()


def insert_ignoring_duplicates(engine_or_dialect: str, table: Table) -> Insert:
    """INSERT that skips rows whose key exists: how every write stays retry-safe."""
    if engine_or_dialect == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


def among(dialect: str, column: ColumnElement[int], ids: Iterable[int]) -> ColumnElement[bool]:
    """`column IN ids`, for a batch's IDs. On PostgreSQL `column = ANY($1)` with the IDs
    as one array parameter: one statement text however many IDs (asyncpg prepares it
    once) and one bind, where an expanding IN renders and binds each ID (a tenth of the
    fan-out worker's CPU at 1,000 IDs a batch, docs/BENCHMARKS.md)."""
    if dialect == "postgresql":
        return column == any_(literal(list(ids), postgresql.ARRAY(BigInteger)))
    return column.in_(ids)


def utc(value: datetime | None) -> datetime | None:
    """SQLite hands timestamps back naive; they were written as UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


async def migrate(engine: AsyncEngine, schema: str | None = None) -> list[str]:
    """Upgrade the schema to the newest revision; the revisions applied, oldest first."""
    async with engine.begin() as connection:
        if schema and engine.dialect.name == "postgresql":
            # The engine's search_path names the schema; it must exist before any table.
            quoted = engine.dialect.identifier_preparer.quote_identifier(schema)
            await connection.execute(text(f"CREATE SCHEMA IF NOT EXISTS {quoted}"))
        before = await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )
        await connection.run_sync(lambda sync: command.upgrade(_alembic_config(sync), "head"))
    applied: list[str] = []
    for script in ScriptDirectory(str(MIGRATIONS_DIR)).walk_revisions():  # newest first
        if script.revision == before:
            break
        applied.append(script.revision)
    return applied[::-1]


async def check_migrated(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        current = await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )
    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    if current != head:
        raise NotMigrated(
            f"database schema is at {current or 'nothing'}, this code needs {head}: "
            "run `feedloom migrate` first"
        )


async def database_problem(url: str, schema: str | None = None) -> str | None:
    """Why a server process cannot start on this database, in one line (None: it can).

    SQLite is migrated on start, so only a server database is checked here."""
    if async_url(url).startswith("sqlite"):
        return None
    engine = create_database(url, schema)
    try:
        await check_migrated(engine)
    except NotMigrated as error:
        return str(error)
    except (OSError, DBAPIError) as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        return f"cannot use the database at {engine.url.render_as_string()}: {reason}"
    finally:
        await engine.dispose()
    return None


async def database_clock(url: str, schema: str | None = None) -> datetime | None:
    """The database server's clock (None for SQLite, which has this machine's)."""
    if async_url(url).startswith("sqlite"):
        return None
    engine = create_database(url, schema)
    try:
        async with engine.connect() as connection:
            now = (await connection.execute(text("SELECT CURRENT_TIMESTAMP"))).scalar_one()
    finally:
        await engine.dispose()
    return utc(now)
