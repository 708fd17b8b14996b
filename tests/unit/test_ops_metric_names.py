"""The rules file and the dashboard name only series and labels the app exports."""

from __future__ import annotations

from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

from feedloom.api.app import create_app
from feedloom.metrics import Metrics
from tests.conftest import shrunk_settings
from tests.ops_files import (
    dashboard_queries,
    grouping_labels,
    matchers,
    names,
    rules,
)

EXPORTED_PREFIXES = ("feedloom_", "process_", "python_")
# Added by Prometheus to every scraped series, and the histogram bucket label.
TARGET_LABELS = {"job", "instance"}
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("", "_count", "_sum", "_created"),
    "gauge": ("",),
    "info": ("_info",),
    "unknown": ("",),
}


def exported() -> dict[str, set[str]]:
    """Every series name the app's registry can expose, with its label names, whether
    or not it has been observed yet (a labelled metric shows no sample before)."""
    metrics = Metrics()
    labels: dict[str, set[str]] = {}
    for metric in vars(metrics).values():
        if isinstance(metric, MetricWrapperBase):
            labels[metric._name] = set(metric._labelnames)  # no public accessor
    series: dict[str, set[str]] = {}
    for family in metrics.registry.collect():
        for suffix in SUFFIXES[family.type]:
            known = labels.get(family.name, set()) | TARGET_LABELS
            series[family.name + suffix] = known | ({"le"} if suffix == "_bucket" else set())
    return series


def exprs() -> list[str]:
    return [rule["expr"] for rule in rules()] + dashboard_queries()


def test_every_series_named_in_the_rules_and_the_dashboard_is_exported() -> None:
    series = exported()
    recorded = {rule["record"] for rule in rules() if "record" in rule}
    for expr in exprs():
        for name in names(expr):
            if ":" in name:
                assert name in recorded, f"{name} is no recording rule (in {expr})"
            elif name.startswith(EXPORTED_PREFIXES):
                assert name in series, f"{name} is not exported (in {expr})"


def test_every_label_matched_or_grouped_by_exists_on_its_series() -> None:
    series = exported()
    recorded = {rule["record"] for rule in rules() if "record" in rule}
    for expr in exprs():
        for name, label, _value in matchers(expr):
            if name in series:
                assert label in series[name], f"{name} has no label {label!r}"
            else:
                assert name in recorded or name == "up", name
        referenced = [name for name in names(expr) if name in series]
        known = set().union(TARGET_LABELS, *(series[name] for name in referenced))
        for label in grouping_labels(expr):
            assert label in known, f"no series in {expr!r} has a label {label!r}"


def test_every_route_named_is_a_route_of_the_app(tmp_path: Path) -> None:
    app = create_app(shrunk_settings(tmp_path), inline_worker=False)
    templates = set(app.openapi()["paths"])
    for expr in exprs():
        for _name, label, value in matchers(expr):
            if label == "route":
                assert value.strip('"') in templates, value


def test_the_dashboard_shows_every_feedloom_metric() -> None:
    shown = {name for query in dashboard_queries() for name in names(query)}
    families = {
        family.name
        for family in Metrics().registry.collect()
        if family.name.startswith("feedloom_")
    }
    for family in families:
        assert any(name.startswith(family) for name in shown), f"no panel shows {family}"
