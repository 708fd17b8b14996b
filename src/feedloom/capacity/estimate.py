"""Back-of-the-envelope capacity estimate (the design brief, section 2), from explicit assumptions.

Units are decimal, as in the brief: 1 KB = 1e3 B, 1 GB = 1e9 B, 1 Gbit = 1e9 bit. A day is
86,400 s and a year 365 days. Results are kept unrounded; rounding is the renderer's job, so
tests can compare against the brief's figures with an explicit tolerance.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_type_hints

from rich.console import Console
from rich.table import Table

SECONDS_PER_DAY = 86_400
DAYS_PER_YEAR = 365


@dataclass(frozen=True)
class Assumptions:
    """The brief's inputs; every field can be overridden from a TOML file of the same keys."""

    dau: int = 20_000_000
    accounts: int = 60_000_000
    posts_per_dau_per_day: float = 0.25
    feed_opens_per_dau_per_day: float = 10.0
    page_size: int = 20
    followers_per_author: int = 200
    peak_factor: float = 3.0
    timeline_ids: int = 500
    id_bytes: int = 8
    timeline_overhead_bytes: int = 100
    timeline_replicas: int = 2
    post_row_bytes: int = 1_000
    image_share: float = 0.2
    image_original_bytes: int = 200_000
    image_thumbnail_bytes: int = 50_000
    years: float = 5.0
    celebrity_followers: int = 10_000_000

    def __post_init__(self) -> None:
        # Validate here rather than only in the TOML loader so `scaled` and direct
        # construction cannot produce a nonsense estimate either.
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"assumption {field.name!r} must be a finite number >= 0")
        if not 0 <= self.image_share <= 1:
            raise ValueError("assumption 'image_share' must be between 0 and 1")

    def scaled(self, factor: float) -> Assumptions:
        """The same service with `factor` times the DAU and accounts; per-user rates stay."""
        if not math.isfinite(factor) or factor <= 0:
            raise ValueError("scale factor must be a finite number > 0")
        return dataclasses.replace(
            self, dau=round(self.dau * factor), accounts=round(self.accounts * factor)
        )


def load_assumptions(path: Path) -> Assumptions:
    """Read a TOML file of top-level `key = number` overrides on top of the defaults."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    return assumptions_from_mapping(data)


def assumptions_from_mapping(data: dict[str, Any]) -> Assumptions:
    """Build `Assumptions` from parsed TOML, refusing unknown keys and non-numeric values."""
    types = {f.name: get_type_hints(Assumptions)[f.name] for f in dataclasses.fields(Assumptions)}
    values: dict[str, int | float] = {}
    for key, value in data.items():
        if key not in types:
            known = ", ".join(sorted(types))
            raise ValueError(f"unknown assumption key {key!r} (known keys: {known})")
        # bool is an int subclass; `dau = true` is a typo, not a number.
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"assumption {key!r} must be a number, got {value!r}")
        if types[key] is int:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(f"assumption {key!r} must be a whole number, got {value!r}")
            values[key] = int(value)
        else:
            values[key] = float(value)
    return Assumptions(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Estimate:
    """Derived figures; rates per second, sizes in bytes, egress in Gbit/s."""

    assumptions: Assumptions
    posts_per_day: float
    posts_per_s_avg: float
    posts_per_s_peak: float
    feed_opens_per_s_avg: float
    feed_opens_per_s_peak: float
    read_write_ratio: float
    fanout_writes_per_s_avg: float
    fanout_writes_per_s_peak: float
    hydrated_posts_per_s_peak: float
    timeline_bytes_per_user: float
    timeline_bytes_dau: float
    timeline_bytes_all: float
    timeline_bytes_dau_replicated: float
    timeline_bytes_all_replicated: float
    post_row_bytes_total: float
    image_bytes_total: float
    feed_image_egress_gbit_s_avg: float
    feed_image_egress_gbit_s_peak: float
    celebrity_fanout_seconds: float


def _ratio(numerator: float, denominator: float) -> float:
    # Zero posts or zero fan-out is a legal what-if; report "infinite" rather than crash.
    return numerator / denominator if denominator else math.inf


def estimate(a: Assumptions) -> Estimate:
    """Compute every figure of the design brief's section 2 from `a`."""
    posts_per_day = a.dau * a.posts_per_dau_per_day
    opens_per_day = a.dau * a.feed_opens_per_dau_per_day
    posts_avg = posts_per_day / SECONDS_PER_DAY
    opens_avg = opens_per_day / SECONDS_PER_DAY
    # Push writes one timeline entry per follower of each posting author.
    fanout_avg = posts_avg * a.followers_per_author
    fanout_peak = fanout_avg * a.peak_factor
    timeline_bytes = a.timeline_ids * a.id_bytes + a.timeline_overhead_bytes
    days = a.years * DAYS_PER_YEAR
    posts_total = posts_per_day * days
    # Feed egress: every opened page shows page_size posts, image_share of them a thumbnail.
    egress_bytes_per_s = opens_avg * a.page_size * a.image_share * a.image_thumbnail_bytes
    egress_gbit_avg = egress_bytes_per_s * 8 / 1e9
    return Estimate(
        assumptions=a,
        posts_per_day=posts_per_day,
        posts_per_s_avg=posts_avg,
        posts_per_s_peak=posts_avg * a.peak_factor,
        feed_opens_per_s_avg=opens_avg,
        feed_opens_per_s_peak=opens_avg * a.peak_factor,
        read_write_ratio=_ratio(opens_per_day, posts_per_day),
        fanout_writes_per_s_avg=fanout_avg,
        fanout_writes_per_s_peak=fanout_peak,
        hydrated_posts_per_s_peak=opens_avg * a.peak_factor * a.page_size,
        timeline_bytes_per_user=timeline_bytes,
        timeline_bytes_dau=timeline_bytes * a.dau,
        timeline_bytes_all=timeline_bytes * a.accounts,
        timeline_bytes_dau_replicated=timeline_bytes * a.dau * a.timeline_replicas,
        timeline_bytes_all_replicated=timeline_bytes * a.accounts * a.timeline_replicas,
        post_row_bytes_total=posts_total * a.post_row_bytes,
        image_bytes_total=posts_total * a.image_share * a.image_original_bytes,
        feed_image_egress_gbit_s_avg=egress_gbit_avg,
        feed_image_egress_gbit_s_peak=egress_gbit_avg * a.peak_factor,
        # The whole peak fan-out capacity, spent on one account's followers.
        celebrity_fanout_seconds=_ratio(a.celebrity_followers, fanout_peak),
    )


def _json_number(value: float) -> float | str:
    # JSON has no infinity; a string keeps the output parseable by every client.
    return value if math.isfinite(value) else "inf"


def estimate_as_dict(est: Estimate) -> dict[str, Any]:
    """A JSON-ready dict: the figures by field name plus the assumptions they came from."""
    out: dict[str, Any] = {"assumptions": dataclasses.asdict(est.assumptions)}
    for field in dataclasses.fields(est):
        if field.name != "assumptions":
            out[field.name] = _json_number(getattr(est, field.name))
    return out


def _count(value: float) -> str:
    return f"{value:,.0f}" if math.isfinite(value) else "inf"


def _bytes(value: float) -> str:
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if value >= size:
            return f"{value / size:,.1f} {unit}"
    return f"{value:,.0f} B"


def _gbit(value: float) -> str:
    return f"{value:,.1f} Gbit/s"


def _seconds(value: float) -> str:
    return f"{_count(value)} s"


def _ratio_text(value: float) -> str:
    return f"{_count(value)} : 1"


_ROWS: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("posts / day", "posts_per_day", _count),
    ("posts / s, avg", "posts_per_s_avg", _count),
    ("posts / s, peak", "posts_per_s_peak", _count),
    ("feed opens / s, avg", "feed_opens_per_s_avg", _count),
    ("feed opens / s, peak", "feed_opens_per_s_peak", _count),
    ("read : write (opens per post)", "read_write_ratio", _ratio_text),
    ("push fan-out writes / s, avg", "fanout_writes_per_s_avg", _count),
    ("push fan-out writes / s, peak", "fanout_writes_per_s_peak", _count),
    ("hydrated posts / s, peak", "hydrated_posts_per_s_peak", _count),
    ("timeline size per user", "timeline_bytes_per_user", _bytes),
    ("timelines, DAU", "timeline_bytes_dau", _bytes),
    ("timelines, all accounts", "timeline_bytes_all", _bytes),
    ("timelines, DAU, with replicas", "timeline_bytes_dau_replicated", _bytes),
    ("timelines, all accounts, with replicas", "timeline_bytes_all_replicated", _bytes),
    ("post rows, whole period", "post_row_bytes_total", _bytes),
    ("images (originals), whole period", "image_bytes_total", _bytes),
    ("feed image egress, avg", "feed_image_egress_gbit_s_avg", _gbit),
    ("feed image egress, peak", "feed_image_egress_gbit_s_peak", _gbit),
)


def render_estimate(
    est: Estimate, console: Console, *, compare: tuple[str, Estimate] | None = None
) -> None:
    """Print `est` as a table; `compare` adds a labelled column, e.g. ("x10", scaled estimate)."""
    columns = [("base", est), *([compare] if compare else [])]
    a = est.assumptions
    table = Table(
        title=f"Capacity estimate (storage over {a.years:g} years)",
        caption=f"celebrity: an account with {a.celebrity_followers:,} followers",
    )
    table.add_column("quantity")
    for label, _ in columns:
        table.add_column(label, justify="right")
    table.add_row("DAU", *(_count(c.assumptions.dau) for _, c in columns))
    table.add_row("accounts", *(_count(c.assumptions.accounts) for _, c in columns))
    for name, attr, fmt in _ROWS:
        table.add_row(name, *(fmt(getattr(c, attr)) for _, c in columns))
    table.add_row(
        "celebrity post, seconds of peak fan-out",
        *(_seconds(c.celebrity_fanout_seconds) for _, c in columns),
    )
    console.print(table)
