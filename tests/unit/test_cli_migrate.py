"""`feedloom migrate` says what it applied, and docs/PRODUCTION.md shows what the code
really prints (the migrate lines and a server's refusal of an unmigrated database)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.adapters.sql.database import (
    MIGRATIONS_DIR,
    NotMigrated,
    check_migrated,
    create_database,
)
from feedloom.cli import app

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = (ROOT / "docs" / "PRODUCTION.md").read_text()
MIGRATIONS = sorted(path.name[:4] for path in MIGRATIONS_DIR.glob("versions/[0-9]*.py"))


def migrate(data_dir: Path) -> str:
    result = CliRunner().invoke(app, ["migrate"], env={"FEEDLOOM_DATA_DIR": str(data_dir)})
    assert result.exit_code == 0, result.output
    return result.output.strip()


def test_the_first_migrate_says_which_migrations_it_applied_and_the_next_none(
    tmp_path: Path,
) -> None:
    first, again = migrate(tmp_path), migrate(tmp_path)

    assert first == (
        f"applied {len(MIGRATIONS)} migrations (0001 to {MIGRATIONS[-1]}): schema is up to date"
    )
    assert again == "schema is up to date: no migration to apply"
    assert first in PRODUCTION and again in PRODUCTION


def test_the_documented_refusal_of_an_unmigrated_database_names_the_newest_migration(
    tmp_path: Path,
) -> None:
    async def refusal() -> str:
        engine = create_database(f"sqlite+aiosqlite:///{tmp_path}/empty.db")
        try:
            with pytest.raises(NotMigrated) as refused:
                await check_migrated(engine)
        finally:
            await engine.dispose()
        return str(refused.value)

    message = asyncio.run(refusal())

    assert MIGRATIONS[-1] in message
    assert f"$ feedloom serve\n   feedloom: {message}\n" in PRODUCTION
