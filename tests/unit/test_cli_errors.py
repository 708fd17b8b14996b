"""Every refused `feedloom` command says why in one plain line on stderr, whatever the
terminal's width: operators grep for it, and a wrapped Rich panel breaks both."""

from __future__ import annotations

import importlib.util
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


@pytest.mark.parametrize(
    ("args", "needs"),
    [
        (["simulate", "--users", "50", "--plot", "{png}"], "simulate --plot needs matplotlib"),
        (["bench", "fanout", "--users", "3"], "bench fanout needs httpx, hdrhistogram, matplotlib"),
        (["bench", "mixed"], "bench mixed needs httpx, hdrhistogram, matplotlib"),
    ],
)
def test_a_command_needing_the_bench_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str], needs: str
) -> None:
    find_spec = importlib.util.find_spec
    absent = {"httpx", "hdrh", "matplotlib"}
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name in absent else find_spec(name)
    )

    result = CliRunner().invoke(app, [arg.format(png=tmp_path / "p.png") for arg in args])

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"feedloom: {needs} (the bench extra): pip install 'feedloom[bench]'"
    ]
    assert not (tmp_path / "p.png").exists()
