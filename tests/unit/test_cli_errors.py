"""Every refused `feedloom` command says why in one plain line on stderr, whatever the
terminal's width: operators grep for it, and a wrapped Rich panel breaks both."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.cli import app


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    # A long path makes a message longer than any narrow terminal.
    path = tmp_path.joinpath(*(["a-rather-long-directory-name"] * 4))
    path.mkdir(parents=True)
    return path


@pytest.mark.parametrize("columns", ["40", "80", "200"])
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["import-graph", "{bad_csv}"], "line 3"),
        (["import-graph", "{missing}"], "cannot read"),
        (["simulate", "--graph", "{bad_csv}"], "follows itself"),
        (["estimate", "--scale", "ten"], "--scale"),
        (["estimate", "--no-such-option"], "No such option"),
        (["bench", "fanout", "--users", "3", "--url", "http://example.com", "--password", "x"],
         "127.0.0.1"),
        (["no-such-command"], "No such command"),
    ],
)  # fmt: skip
def test_a_refused_command_prints_one_plain_line_at_any_width(
    deep: Path, columns: str, args: list[str], words: str
) -> None:
    bad_csv = deep / "edges.csv"
    bad_csv.write_text("follower,followee\n1,2\n3,3\n")
    paths = {"bad_csv": bad_csv, "missing": deep / "nope.csv"}

    result = CliRunner().invoke(
        app, [arg.format(**paths) for arg in args], env={"COLUMNS": columns}
    )

    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("feedloom: ") and words in line
