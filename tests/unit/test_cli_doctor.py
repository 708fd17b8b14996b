"""`feedloom doctor` says, one line per check, what is fine and what to fix."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.adapters.redis import server_facts
from feedloom.adapters.redis.server_facts import RedisFacts
from feedloom.cli import app


def doctor(env: dict[str, str]) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["doctor"], env={"COLUMNS": "80", **env})
    return result.exit_code, result.stdout.splitlines()


def test_an_embedded_setup_is_fine_line_by_line(tmp_path: Path) -> None:
    code, lines = doctor({"FEEDLOOM_DATA_DIR": str(tmp_path)})
    assert code == 0
    assert [line.split()[:2] for line in lines] == [
        ["ok", "database"], ["ok", "redis"], ["ok", "secret"], ["ok", "worker"]
    ]  # fmt: skip
    assert max(map(len, lines)) <= 80


def test_a_redis_that_may_evict_streams_is_too_old_and_off_the_clock_is_to_be_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def facts(url: str, cluster: bool) -> RedisFacts:
        return RedisFacts("6.2.6", "allkeys-lru", datetime.now(UTC) - timedelta(seconds=30))

    monkeypatch.setattr(server_facts, "redis_facts", facts)
    env = {
        "FEEDLOOM_DATA_DIR": str(tmp_path),
        "FEEDLOOM_REDIS_URL": "redis://nowhere:1/0",
        "FEEDLOOM_SECRET_KEY": "k" * 32,
    }

    code, lines = doctor(env)

    assert code == 1
    fixes = [line for line in lines if line.startswith("FIX")]
    assert [line.split()[1] for line in fixes] == ["redis", "redis", "clock"]
    assert "7.0 or newer" in fixes[0] and "volatile-lru" in fixes[1] and "+30" in fixes[2]


def test_production_leases_each_processs_worker_id_without_a_setting(tmp_path: Path) -> None:
    env = {
        "FEEDLOOM_DATA_DIR": str(tmp_path),
        "FEEDLOOM_ENVIRONMENT": "production",
        "FEEDLOOM_SECRET_KEY": "a-real-secret-of-some-length-at-last",
    }
    _code, lines = doctor(env)
    [worker_id] = [line for line in lines if "worker id" in line]
    assert not worker_id.startswith("FIX") and "leased" in worker_id


def test_a_deployment_without_a_secret_key_is_to_be_fixed(tmp_path: Path) -> None:
    env = {"FEEDLOOM_DATA_DIR": str(tmp_path), "FEEDLOOM_REDIS_URL": "redis://127.0.0.1:1/0"}
    code, lines = doctor(env)
    assert code == 1
    assert "FIX  secret    FEEDLOOM_SECRET_KEY unset: openssl rand -hex 32" in lines


def test_the_example_env_file_gets_every_placeholder_listed_at_once(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "ops/one-machine/feedloom.env.example"
    env = dict(
        line.split("=", 1)
        for line in example.read_text().splitlines()
        if line and not line.startswith("#")
    )

    code, lines = doctor({**env, "FEEDLOOM_DATA_DIR": str(tmp_path)})

    assert code == 1
    assert [line.split()[:3] for line in lines] == [
        ["FIX", "settings", "FEEDLOOM_DATABASE_URL:"],
        ["FIX", "settings", "FEEDLOOM_SECRET_KEY:"],
        ["FIX", "settings", "FEEDLOOM_METRICS_TOKEN:"],
    ]
    assert all("placeholder" in line for line in lines)
    assert "REPLACE" not in "".join(lines)  # secrets and URLs are never echoed back
