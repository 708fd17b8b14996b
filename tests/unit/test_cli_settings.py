"""A wrong environment is refused before anything starts, in one line that names the
FEEDLOOM_* variable, and so is a port no socket can have."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.cli import app
from feedloom.settings import known_variables, load_settings, unknown_variables


def refusal(args: list[str], env: dict[str, str]) -> str:
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80", **env})
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    return line


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"FEEDLOOM_FANOUT__PULL_ABOVE": "abc"},
         "feedloom: FEEDLOOM_FANOUT__PULL_ABOVE='abc': Input should be a valid integer, "
         "unable to parse string as an integer"),
        ({"FEEDLOOM_WORKER_ID": "5000"},
         "feedloom: FEEDLOOM_WORKER_ID='5000': Input should be less than or equal to 1023"),
        ({"FEEDLOOM_FANOUT__PULL_ABOV": "5"},
         "feedloom: FEEDLOOM_FANOUT__PULL_ABOV is not a feedloom setting "
         "(did you mean FEEDLOOM_FANOUT__PULL_ABOVE?)"),
        ({"FEEDLOOM_RECLAIM_IDLE_S": "1"},
         "feedloom: FEEDLOOM_RECLAIM_HEARTBEAT_S must be at most half of "
         "FEEDLOOM_RECLAIM_IDLE_S"),
        ({"FEEDLOOM_SECRET_KEY": "change-me"},
         "feedloom: FEEDLOOM_SECRET_KEY: still a placeholder: use random characters "
         "(openssl rand -hex 32)"),
        ({"FEEDLOOM_HTTP__TRUSTED_PROXIES": "127.0.0.1, 10.0.0.1/8"},
         "feedloom: FEEDLOOM_HTTP__TRUSTED_PROXIES='127.0.0.1, 10.0.0.1/8': '10.0.0.1/8' is "
         "not an IP address or CIDR range (like 10.0.0.0/8): 10.0.0.1/8 has host bits set"),
        ({"FEEDLOOM_HTTP__TRUSTED_PROXIES": "proxy.internal"},
         "feedloom: FEEDLOOM_HTTP__TRUSTED_PROXIES='proxy.internal': 'proxy.internal' is not "
         "an IP address or CIDR range (like 10.0.0.0/8): 'proxy.internal' does not appear to "
         "be an IPv4 or IPv6 network"),
        ({"FORWARDED_ALLOW_IPS": "10.0.0.5"},
         "feedloom: FORWARDED_ALLOW_IPS is no longer read: set "
         "FEEDLOOM_HTTP__TRUSTED_PROXIES instead"),
        ({"FEEDLOOM_MEDIA__STORE": "s3"},
         "feedloom: FEEDLOOM_MEDIA: FEEDLOOM_MEDIA__STORE=s3 needs FEEDLOOM_MEDIA__S3_BUCKET"),
        ({"FEEDLOOM_MEDIA__STORE": "gcs"},
         "feedloom: FEEDLOOM_MEDIA__STORE='gcs': Input should be 'files' or 's3'"),
    ],
)  # fmt: skip
def test_a_bad_setting_is_one_line_naming_the_variable(
    tmp_path: Path, env: dict[str, str], line: str
) -> None:
    assert refusal(["migrate"], {"FEEDLOOM_DATA_DIR": str(tmp_path), **env}) == line
    assert not (tmp_path / "feedloom.sqlite3").exists()


def test_trusted_proxies_are_addresses_or_ranges_separated_by_commas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FEEDLOOM_HTTP__TRUSTED_PROXIES", " 127.0.0.1, 10.0.0.0/8 ,::1")
    assert [str(net) for net in load_settings().http.trusted_proxies] == [
        "127.0.0.1/32",
        "10.0.0.0/8",
        "::1/128",
    ]
    monkeypatch.delenv("FEEDLOOM_HTTP__TRUSTED_PROXIES")
    assert load_settings().http.trusted_proxies == []  # none by default


def test_a_secret_or_url_is_never_echoed_back() -> None:
    line = refusal(["migrate"], {"FEEDLOOM_METRICS_TOKEN": "hunter2"})
    assert line.startswith("feedloom: FEEDLOOM_METRICS_TOKEN: ") and "hunter2" not in line
    line = refusal(["migrate"], {"FEEDLOOM_MEDIA__S3_SECRET_ACCESS_KEY": "x" * 50})
    assert "FEEDLOOM_MEDIA__S3_ACCESS_KEY_ID" in line and "x" * 50 not in line


def test_every_nested_setting_and_its_group_are_known_and_the_tests_own_are_left_alone() -> None:
    known = set(known_variables())
    assert {"FEEDLOOM_FANOUT", "FEEDLOOM_FANOUT__PULL_ABOVE"} <= known
    assert "FEEDLOOM_FEED__WEIGHTS__AFFINITY" in known
    environ = {"FEEDLOOM_TEST_POSTGRES_URL": "x", "PATH": "/bin", "FEEDLOOM_redis_url": "x"}
    assert unknown_variables(environ) == []


@pytest.mark.parametrize("port", ["0", "65536", "99999"])
def test_serve_refuses_a_port_outside_1_to_65535(port: str) -> None:
    line = refusal(["serve", "--port", port], {})
    assert line.startswith("feedloom: Invalid value for '--port'")


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.startswith("feedloom 0.")


@pytest.mark.parametrize("command", [["serve", "--no-demo"], ["worker"]])
def test_serving_on_redis_or_postgresql_without_a_secret_key_is_refused_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    env = {"COLUMNS": "80", "FEEDLOOM_DATA_DIR": str(tmp_path)}
    env["FEEDLOOM_REDIS_URL"] = "redis://127.0.0.1:1/0"
    result = CliRunner().invoke(app, command, env=env)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "feedloom: FEEDLOOM_SECRET_KEY is required with PostgreSQL or Redis: set it to "
        "32+ random characters (openssl rand -hex 32), the same in every process"
    ]
    assert not (tmp_path / "secret_key").exists()
