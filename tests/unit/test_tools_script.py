"""scripts/_tools, the step of ./scripts/test (and .ci/run) that installs what the tests
drive: redis-server and redis-cli, promtool, chromium and chromium-driver, and `npm ci`
in each test directory with a package-lock.json (axe-core, the Mastodon JS client).

Each case runs it under a PATH of fakes: which programs exist, whether we are root
(`id`) and what `apt-get` was asked (it records its arguments) are the test's to choose.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ["redis-server", "redis-cli", "promtool", "chromium", "chromedriver"]


def run_tools(
    tmp_path: Path,
    present: list[str],
    *,
    uid: int = 0,
    apt: bool = True,
    ci: bool = False,
    npm_dirs: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """scripts/_tools in a checkout of its own under `tmp_path`: the test directories
    with a package-lock.json (and no node_modules) are `npm_dirs`, not this repo's."""
    bin_dir, checkout = tmp_path / "bin", tmp_path / "checkout"
    bin_dir.mkdir()
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "_tools", checkout / "scripts" / "_tools")
    (checkout / "tests").mkdir()
    for npm_dir in npm_dirs:
        (checkout / npm_dir).mkdir(parents=True)
        (checkout / npm_dir / "package-lock.json").write_text("{}")
    for real in ["bash", "dirname", "find", "cat"]:
        (bin_dir / real).symlink_to(shutil.which(real) or real)
    fakes = {name: "exit 0" for name in present} | {"id": f"echo {uid}"}
    if apt:
        fakes["apt-get"] = f'echo "$*" >> {tmp_path}/apt-get.calls'
    if "npm" in present:
        fakes["npm"] = f'echo "$PWD $*" >> {tmp_path}/npm.calls'
    for name, body in fakes.items():
        (bin_dir / name).write_text(f"#!{shutil.which('bash')}\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = {"PATH": str(bin_dir), "CI": "true" if ci else ""}
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail; source scripts/_tools; echo went-on"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )


def apt_calls(tmp_path: Path) -> list[str]:
    calls = tmp_path / "apt-get.calls"
    return calls.read_text().splitlines() if calls.exists() else []


def test_nothing_is_installed_or_updated_when_every_tool_is_there(tmp_path: Path) -> None:
    result = run_tools(tmp_path, TOOLS)

    assert result.returncode == 0 and result.stdout == "went-on\n" and result.stderr == ""
    assert apt_calls(tmp_path) == []


def test_root_installs_exactly_the_missing_debian_packages(tmp_path: Path) -> None:
    result = run_tools(tmp_path, ["redis-server", "redis-cli", "chromium"])

    assert result.returncode == 0, result.stderr
    update, install = apt_calls(tmp_path)
    assert update == "update -qq"
    assert install.split()[-2:] == ["prometheus", "chromium-driver"]


def test_without_root_one_line_names_what_is_missing_and_the_tests_go_on(
    tmp_path: Path,
) -> None:
    result = run_tools(tmp_path, ["redis-server", "redis-cli"], uid=1000)

    assert result.returncode == 0 and result.stdout == "went-on\n"
    assert len(result.stderr.splitlines()) == 1
    assert "sudo apt-get install prometheus chromium chromium-driver" in result.stderr
    assert apt_calls(tmp_path) == []


def test_in_ci_a_missing_tool_that_cannot_be_installed_fails_the_run(tmp_path: Path) -> None:
    result = run_tools(tmp_path, TOOLS[1:], apt=False, ci=True)

    assert result.returncode == 1 and "went-on" not in result.stdout
    assert "missing redis-server" in result.stderr and "CI=true needs them" in result.stderr


def test_a_test_directory_with_a_lock_file_gets_npm_ci_and_others_nothing(tmp_path: Path) -> None:
    result = run_tools(tmp_path, [*TOOLS, "npm"], npm_dirs=("tests/integration/axe",))

    assert result.returncode == 0 and result.stdout == "went-on\n", result.stderr
    calls = (tmp_path / "npm.calls").read_text().splitlines()
    assert len(calls) == 1 and calls[0].endswith(
        "tests/integration/axe ci --silent --no-audit --no-fund"
    )
    assert apt_calls(tmp_path) == []


def test_without_npm_a_lock_file_asks_for_it(tmp_path: Path) -> None:
    result = run_tools(tmp_path, TOOLS, npm_dirs=("tests/integration/axe",))

    assert result.returncode == 0, result.stderr
    assert apt_calls(tmp_path)[-1].split()[-1] == "npm"
