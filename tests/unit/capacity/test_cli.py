"""`estimate` and `simulate` through the `feedloom` command."""

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from feedloom.cli import app as feedloom

ROW_FIELDS = [
    "threshold",
    "pulled_authors",
    "writes_per_post_p50",
    "writes_per_post_p99",
    "writes_per_post_max",
    "total_writes",
    "read_sources_p50",
    "read_sources_p99",
    "p_slow_at_p50",
    "p_slow_at_p99",
]

runner = CliRunner()


@pytest.fixture
def app() -> typer.Typer:
    return feedloom


@pytest.fixture
def edges_csv(tmp_path: Path) -> Path:
    path = tmp_path / "edges.csv"
    path.write_text("follower,followee\nb,a\nc,a\nc,b\n")
    return path


def flat(text: str) -> str:
    # Compare the words, not the layout (the one-line errors are tested in test_cli_errors).
    return " ".join(text.replace("│", " ").split())


def test_estimate_json_is_one_object_with_the_briefs_figures(app: typer.Typer) -> None:
    result = runner.invoke(app, ["estimate", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["posts_per_day"] == 5_000_000
    assert round(data["fanout_writes_per_s_peak"]) == 34_722
    assert data["assumptions"]["dau"] == 20_000_000


def test_estimate_json_with_scale_has_base_and_scaled(app: typer.Typer) -> None:
    result = runner.invoke(app, ["estimate", "--json", "--scale", "10"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"base", "scaled"}
    assert data["scaled"]["assumptions"]["dau"] == 200_000_000
    assert data["scaled"]["timeline_bytes_dau"] == 820e9


def test_estimate_table_shows_base_and_scaled_columns(app: typer.Typer) -> None:
    result = runner.invoke(app, ["estimate", "--scale", "10"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "34,722" in result.stdout
    assert "347,222" in result.stdout
    assert "x10" in result.stdout


def test_estimate_reads_assumptions_from_toml(app: typer.Typer, tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("dau = 2_000_000\n")
    result = runner.invoke(app, ["estimate", "--json", "--assumptions", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["posts_per_day"] == 500_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--assumptions", "{toml}"], "unknown assumption key 'dau_count'"),
        (["--assumptions", "{missing}"], "cannot read"),
        (["--scale", "0"], "scale factor must be a finite number > 0"),
        (["--scale", "ten"], "--scale"),
    ],
)
def test_estimate_with_bad_input_exits_2_with_a_message_and_no_traceback(
    app: typer.Typer, tmp_path: Path, args: list[str], message: str
) -> None:
    toml = tmp_path / "a.toml"
    toml.write_text("dau_count = 5\n")
    args = [a.format(toml=toml, missing=tmp_path / "nope.toml") for a in args]
    result = runner.invoke(app, ["estimate", *args])
    assert result.exit_code == 2
    assert message in flat(result.output)
    assert "Traceback" not in result.output


def test_simulate_json_has_exactly_the_documented_fields(app: typer.Typer, edges_csv: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "--graph", str(edges_csv), "--thresholds", "inf,1,0", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"followers", "rows"}
    assert set(data["followers"]) == {"median", "p99", "top5"}
    assert data["followers"]["top5"] == [["a", 2], ["b", 1], ["c", 0]]
    assert [list(row) for row in data["rows"]] == [ROW_FIELDS] * 3
    assert [row["threshold"] for row in data["rows"]] == ["inf", 1, 0]
    assert [row["total_writes"] for row in data["rows"]] == [3, 1, 0]


def test_simulate_on_a_generated_graph_writes_a_png_plot(app: typer.Typer, tmp_path: Path) -> None:
    plot = tmp_path / "sim.png"
    result = runner.invoke(
        app,
        ["simulate", "--users", "200", "--seed", "3", "--plot", str(plot)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "Fan-out by pull threshold" in result.stdout
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_simulate_default_thresholds_are_inf_5000_1000_200_0(app: typer.Typer) -> None:
    result = runner.invoke(app, ["simulate", "--users", "50", "--json"])
    assert result.exit_code == 0, result.output
    thresholds = [row["threshold"] for row in json.loads(result.stdout)["rows"]]
    assert thresholds == ["inf", 5000, 1000, 200, 0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give --graph FILE or --users N"),
        (["--graph", "{csv}", "--users", "10"], "not both"),
        (["--graph", "{bad}"], "line 3: account 'x' follows itself"),
        (["--graph", "{missing}"], "cannot read"),
        (["--users", "1"], "at least 2 users"),
        (["--users", "10", "--thresholds", "inf,lots"], "threshold 'lots'"),
        (["--users", "10", "--plot", "{nodir}"], "cannot write"),
    ],
)
def test_simulate_with_bad_input_exits_2_with_a_message_and_no_traceback(
    app: typer.Typer, tmp_path: Path, edges_csv: Path, args: list[str], message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("follower,followee\n1,2\nx,x\n")
    paths = {
        "csv": edges_csv,
        "bad": bad,
        "missing": tmp_path / "nope.csv",
        "nodir": tmp_path / "no" / "such" / "dir.png",
    }
    result = runner.invoke(app, ["simulate", *(a.format(**paths) for a in args)])
    assert result.exit_code == 2
    assert message in flat(result.output)
    assert "Traceback" not in result.output
    # A failed run prints no partial result before the error.
    assert result.stdout == ""
