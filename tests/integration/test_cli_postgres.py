"""`feedloom migrate` on PostgreSQL, and server processes that refuse a database or a
Redis they cannot use with one plain line instead of a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import asyncpg
import pytest

from feedloom.adapters.sql.database import MIGRATIONS_DIR
from tests.integration.processes import free_port
from tests.servers import POSTGRES_URL, REDIS_URL, TEST_SECRET_KEY, scratch_schema

pytestmark = pytest.mark.postgres

MIGRATE_HINT = "run `feedloom migrate` first"
MIGRATIONS = sorted(path.name[:4] for path in MIGRATIONS_DIR.glob("versions/[0-9]*.py"))


def feedloom(
    *args: str, schema: str, url: str = POSTGRES_URL, **env_vars: str
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "FEEDLOOM_DATABASE_URL": url,
        "FEEDLOOM_DATABASE_SCHEMA": schema,
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        **env_vars,
    }
    return subprocess.run(
        [sys.executable, "-m", "feedloom", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def index_columns(schema: str) -> dict[str, set[tuple[str, ...]]]:
    """Per table, the column lists of its indexes (primary keys included)."""
    connection = await asyncpg.connect(POSTGRES_URL)
    try:
        rows = await connection.fetch(
            "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = $1", schema
        )
    finally:
        await connection.close()
    found: dict[str, set[tuple[str, ...]]] = {}
    for row in rows:
        columns = re.search(r"\((.*)\)$", row["indexdef"])
        assert columns is not None, row["indexdef"]
        found.setdefault(row["tablename"], set()).add(
            tuple(name.strip() for name in columns.group(1).split(","))
        )
    return found


async def test_migrate_creates_the_schema_with_the_keyset_indexes_and_is_repeatable() -> None:
    async with scratch_schema(migrated=False) as schema:
        first, again = (feedloom("migrate", schema=schema) for _ in range(2))
        assert first.returncode == again.returncode == 0, first.stderr + again.stderr
        assert f"applied {len(MIGRATIONS)} migrations (0001 to {MIGRATIONS[-1]})" in first.stderr
        assert "schema is up to date: no migration to apply" in again.stderr
        indexes = await index_columns(schema)
        assert ("author_id", "id") in indexes["posts"]
        assert {("followee_id", "follower_id"), ("follower_id", "followee_id")} <= indexes[
            "follows"
        ]


# A free port: serve refuses the database before it binds, and never binds port 0 (the
# range is 1-65535).
@pytest.mark.parametrize(
    "command",
    [("serve", "--no-demo", "--port", str(free_port())), ("worker",)],
    ids=["serve", "worker"],
)
async def test_a_server_process_refuses_an_unmigrated_database_in_one_line(
    command: tuple[str, ...],
) -> None:
    # A worker needs Redis (it refuses in-process caches it cannot share): give it one.
    async with scratch_schema(migrated=False) as schema:
        refused = feedloom(*command, schema=schema, FEEDLOOM_REDIS_URL=REDIS_URL)
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        f"feedloom: database schema is at nothing, this code needs {head_revision()}: "
        + MIGRATE_HINT
    ]


async def test_serve_names_an_unreachable_database_in_one_line() -> None:
    refused = feedloom(
        "serve", "--no-demo", schema="public", url="postgresql://postgres@127.0.0.1:9/test"
    )
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in refused.stderr
    assert lines[0].startswith("feedloom: cannot use the database at postgresql")


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    from feedloom.adapters.sql.database import MIGRATIONS_DIR

    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    assert head is not None
    return head


async def test_a_server_process_names_an_unreachable_redis_in_one_line() -> None:
    async with scratch_schema() as schema:
        refused = feedloom("worker", schema=schema, FEEDLOOM_REDIS_URL="redis://127.0.0.1:9/0")
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in refused.stderr
    assert lines[0].startswith("feedloom: Redis at redis://127.0.0.1:9/0 is unreachable")
