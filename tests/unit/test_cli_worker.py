"""`feedloom worker` refuses a store it cannot share, in one line saying what to run."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.cli import app


def test_a_worker_refuses_the_embedded_default_and_names_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FEEDLOOM_REDIS_URL", raising=False)
    result = CliRunner().invoke(
        app, ["worker", "--data-dir", str(tmp_path), "--metrics-port", "9999"], env={}
    )
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("feedloom: feedloom worker needs Redis (FEEDLOOM_REDIS_URL)")
    assert "`feedloom serve`" in line
    assert not (tmp_path / "feedloom.sqlite3").exists()  # refused before touching the store


def test_the_worker_takes_a_data_dir_and_a_metrics_port() -> None:
    result = CliRunner().invoke(app, ["worker", "--help"], env={"COLUMNS": "200"})
    assert "--data-dir" in result.stdout and "--metrics-port" in result.stdout
