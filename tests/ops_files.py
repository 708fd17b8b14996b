"""The checked-in Prometheus rules and Grafana dashboard, and the PromQL in them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

OPS = Path(__file__).resolve().parent.parent / "ops"
RULES = OPS / "prometheus" / "feedloom-rules.yml"
RULE_TESTS = OPS / "prometheus" / "feedloom-rules.test.yml"
DASHBOARD = OPS / "grafana" / "feedloom-dashboard.json"

# Grafana's own variables, given plain values so a dashboard query is plain PromQL.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$job": ".*"}


def rules() -> list[dict[str, Any]]:
    document = yaml.safe_load(RULES.read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def dashboard_targets() -> list[str]:
    """Every panel target's expr, as plain PromQL."""
    document = json.loads(DASHBOARD.read_text())
    return [
        plain(target["expr"]) for panel in document["panels"] for target in panel.get("targets", [])
    ]


def dashboard_queries() -> list[str]:
    """The targets and the templating queries (`label_values(series, label)`)."""
    document = json.loads(DASHBOARD.read_text())
    variables = document["templating"]["list"]
    return dashboard_targets() + [v["definition"] for v in variables if v["type"] == "query"]


def plain(query: str) -> str:
    for variable, value in GRAFANA_VARIABLES.items():
        query = query.replace(variable, value)
    return query


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")
_SELECTOR = re.compile(r"([A-Za-z_:][A-Za-z0-9_:]*)\{([^}]*)\}")
_MATCHER = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)\s*("(?:[^"\\]|\\.)*")')
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)")


def names(expr: str) -> set[str]:
    """Identifiers that may be series names: everything outside strings, braces and
    grouping clauses (PromQL functions and keywords included; callers filter)."""
    bare = _GROUPING.sub(" ", re.sub(r"\{[^}]*\}", " ", _STRING.sub(" ", expr)))
    bare = re.sub(r"\[[^\]]*\]", " ", bare)  # range durations such as [5m]
    return set(_NAME.findall(bare))


def matchers(expr: str) -> list[tuple[str, str, str]]:
    """(series name, label, quoted value) for every `name{label="value"}` matcher."""
    return [
        (series, label, value)
        for series, inside in _SELECTOR.findall(expr)
        for label, value in _MATCHER.findall(inside)
    ]


def grouping_labels(expr: str) -> set[str]:
    return {
        label.strip()
        for inside in _GROUPING.findall(expr)
        for label in inside.split(",")
        if label.strip()
    }
