"""Every alert the rules ship has its runbook: a section in docs/OPERATIONS.md (where the
rule's `runbook` annotation points) and a line in docs/PRODUCTION.md's alert table."""

from __future__ import annotations

import re
from pathlib import Path

from tests.ops_files import rules

ROOT = Path(__file__).parents[2]


def alerts() -> list[tuple[str, str]]:
    return [(rule["alert"], rule["annotations"]["runbook"]) for rule in rules() if "alert" in rule]


def test_every_alert_points_at_its_own_section_of_operations_md() -> None:
    sections = re.findall(r"^### (\w+)$", (ROOT / "docs" / "OPERATIONS.md").read_text(), re.M)
    assert alerts()
    for name, runbook in alerts():
        assert name in sections
        assert runbook == f"docs/OPERATIONS.md#{name.lower()}"


def test_every_alert_has_a_line_in_the_production_table() -> None:
    table = re.findall(
        r"^\| (Feedloom\w+) \| .+\|$", (ROOT / "docs" / "PRODUCTION.md").read_text(), re.M
    )
    assert sorted(table) == sorted(name for name, _ in alerts())
