"""Benchmark output: a Markdown report on stdout; with `--out DIR`, JSON and a PNG.

Figures travel as plain dicts (field name -> number or None) so the same values feed
the Markdown table, the JSON file and the docs. The PNG is the classic HDR plot:
latency against percentile, the percentile axis stretched towards the tail.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

Figures = Mapping[str, object]
Curve = Sequence[tuple[float, float]]  # (percentile, milliseconds)


def fmt(value: object, unit: str = "") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}{unit}"
    if isinstance(value, float):
        if math.isinf(value):
            return "inf"
        digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2 if abs(value) >= 1 else 3
        return f"{value:,.{digits}f}{unit}"
    return f"{value}{unit}"


def latency_cell(figures: Figures, prefix: str) -> str:
    """ "p50 / p95 / p99 / max" of one latency summary, in ms."""
    keys = ("p50_ms", "p95_ms", "p99_ms", "max_ms")
    return " / ".join(fmt(figures.get(f"{prefix}_{key}")) for key in keys)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_outputs(
    out_dir: Path, name: str, data: Mapping[str, object], curves: Mapping[str, Curve], title: str
) -> list[Path]:
    """`<name>.json` and `<name>-latency.png` in `out_dir`; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{name}.json"
    json_path.write_text(json.dumps(data, indent=2, default=str) + "\n")
    written = [json_path]
    if any(curves.values()):
        png_path = out_dir / f"{name}-latency.png"
        plot_latency(curves, title, png_path)
        written.append(png_path)
    return written


def plot_latency(curves: Mapping[str, Curve], title: str, path: Path) -> None:
    # Imported here: matplotlib is slow to import and only --out needs it. The Agg
    # canvas is bound to this figure only: no pyplot global state, no GUI backend.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for label, points in curves.items():
        if points:
            # x = 1 / (1 - p): 90% -> 10, 99% -> 100, 99.9% -> 1000 (log scale).
            xs = [1 / (1 - min(percentile, 99.999) / 100) for percentile, _ in points]
            axes.plot(xs, [ms for _, ms in points], label=label)
    ticks = [1, 2, 10, 100, 1_000, 10_000]
    axes.set_xscale("log")
    axes.set_xticks(ticks, ["0%", "50%", "90%", "99%", "99.9%", "99.99%"])
    axes.set_xlabel("percentile")
    axes.set_ylabel("latency (ms)")
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend()
    figure.savefig(path, dpi=110)
