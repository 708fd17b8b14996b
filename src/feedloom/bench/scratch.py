"""Throwaway PostgreSQL schemas for benchmarks: created migrated, dropped with all in them.

A benchmark run gets a schema of its own on a shared server (the database named by
FEEDLOOM_DATABASE_URL), so it never touches anyone else's tables and leaves nothing
behind. The test suite's scratch schemas (tests/servers.py) are made the same way.
"""

from __future__ import annotations

import re

from sqlalchemy import text

from feedloom.adapters.sql.database import create_database, migrate

SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


async def create_scratch_schema(url: str, schema: str) -> None:
    _check(schema)
    engine = create_database(url, schema)
    try:
        await migrate(engine, schema)
    finally:
        await engine.dispose()


async def drop_scratch_schema(url: str, schema: str) -> None:
    _check(schema)
    engine = create_database(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await engine.dispose()


def _check(schema: str) -> None:
    # The name is interpolated into DDL (identifiers cannot be bound parameters).
    if not SCHEMA_NAME.match(schema):
        raise ValueError(f"not a plain schema name: {schema!r}")
