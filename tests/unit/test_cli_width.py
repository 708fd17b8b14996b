"""Every command's output is readable in an 80-column terminal: no line is wider."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.cli import app

COMMANDS = [
    ["--help"],
    ["estimate"],
    ["estimate", "--scale", "10"],
    ["simulate", "--users", "300", "--seed", "1"],
    ["doctor"],
    ["accounts", "--help"],
    ["accounts", "suspend", "--help"],
    ["feeds", "--help"],
    ["feeds", "build", "--help"],
    ["media", "--help"],
    ["media", "cleanup", "--dry-run"],
    ["serve", "--help"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_the_output_fits_80_columns(tmp_path: Path, args: list[str]) -> None:
    env = {"COLUMNS": "80", "FEEDLOOM_DATA_DIR": str(tmp_path)}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_an_account_line_fits_80_columns(tmp_path: Path) -> None:
    env = {
        "COLUMNS": "80",
        "FEEDLOOM_DATA_DIR": str(tmp_path),
        "FEEDLOOM_PASSWORD_HASH_TIME_COST": "1",
        "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": "256",
    }
    name = "a_name_of_thirty_two_characters_"
    created = CliRunner().invoke(app, ["accounts", "create", name], env=env)
    suspended = CliRunner().invoke(app, ["accounts", "suspend", name], env=env)
    assert created.exit_code == suspended.exit_code == 0, created.output + suspended.output
    for line in created.stdout.splitlines() + suspended.stdout.splitlines():
        assert len(line) <= 80, line
