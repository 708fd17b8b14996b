"""promtool on the checked-in rules, their unit tests and the dashboard's queries.

promtool comes with Debian's `prometheus` package, which ./scripts/test installs: locally a
missing promtool skips these tests, in CI (CI=true) it fails them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.ops_files import RULE_TESTS, RULES, dashboard_targets
from tests.servers import unavailable


@pytest.fixture(scope="module")
def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        unavailable("promtool", "not installed: apt-get install prometheus")
    return found


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], capture_output=True, text=True, timeout=120, cwd=cwd
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_rules_file_is_valid(promtool: str) -> None:
    assert "SUCCESS" in run(promtool, "check", "rules", RULES)


def test_the_alerts_fire_on_the_synthetic_series_and_stay_quiet_when_healthy(
    promtool: str,
) -> None:
    assert "SUCCESS" in run(promtool, "test", "rules", RULE_TESTS.name, cwd=RULE_TESTS.parent)


def test_every_dashboard_query_is_valid_promql(promtool: str, tmp_path: Path) -> None:
    # promtool has no offline query parser; checking them as recording rules parses them.
    as_rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query_{n}", "expr": expr}
                    for n, expr in enumerate(dashboard_targets())
                ],
            }
        ]
    }
    checked = tmp_path / "dashboard-rules.yml"
    checked.write_text(yaml.safe_dump(as_rules))
    assert f"SUCCESS: {len(dashboard_targets())} rules found" in run(
        promtool, "check", "rules", checked
    )
