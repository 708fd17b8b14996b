"""The README's two setup commands, literally, in a clean clone of this commit.

The README's setup code block (the one naming ./scripts/serve and ./scripts/test) is the
source of truth: this test reads the commands from it, clones HEAD into a temporary
directory and runs them there as a newcomer would: the serve command until /healthz
answers 200, then the test command on one small test file (it passes extra arguments to
pytest). The clone makes its own .venv from the pip cache, and ./scripts/test installs or
checks the programs the tests need (scripts/_tools), so the two cannot drift from what
the README promises.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.integration.processes import free_port

pytestmark = pytest.mark.slow  # a clone, a fresh .venv and two scripts: a minute or two

ROOT = Path(__file__).resolve().parents[2]
SMALL_TEST_FILE = "tests/unit/test_cli_width.py"


def readme_setup_commands() -> dict[str, list[str]]:
    """{"serve": argv, "test": argv} from the README's bash block that runs both."""
    readme = (ROOT / "README.md").read_text()
    for block in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL):
        commands = [shlex.split(line, comments=True) for line in block.splitlines()]
        named = {Path(argv[0]).name: argv for argv in commands if argv}
        if {"serve", "test"} <= named.keys():
            return {"serve": named["serve"], "test": named["test"]}
    raise AssertionError("README.md has no bash block with ./scripts/serve and ./scripts/test")


def healthz(port: int) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return int(answer.status)
    except OSError:
        return None


def test_the_readme_setup_block_names_both_commands() -> None:
    commands = readme_setup_commands()

    assert commands == {"serve": ["./scripts/serve"], "test": ["./scripts/test"]}


def test_the_readme_commands_pass_in_a_fresh_clone(tmp_path: Path) -> None:
    commands = readme_setup_commands()
    clone = tmp_path / "feedloom"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = free_port()
    # The commands are the README's; only the environment differs: a port of its own (a
    # developer's server may hold 8000), one test process, none of this run's FEEDLOOM_*.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FEEDLOOM_", "PYTEST"))}
    env |= {"FEEDLOOM_PORT": str(port), "FEEDLOOM_TEST_WORKERS": "0"}
    with (tmp_path / "serve.log").open("w") as log:
        server = subprocess.Popen(
            commands["serve"],
            cwd=clone,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 300  # the first run creates .venv
            while healthz(port) != 200:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "no /healthz 200 within 300 s"
                time.sleep(0.5)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)

    tested = subprocess.run(
        [*commands["test"], SMALL_TEST_FILE],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert tested.returncode == 0, (tested.stdout + tested.stderr)[-3000:]
    assert " passed" in tested.stdout
