"""Fan-out simulation: what push, pull and hybrid cost on a given follower graph.

Model. Every account in the graph (every ID on either side of an edge) posts once and opens
its feed once. For a threshold T, an author with MORE than T followers is *pulled*: its post
is not written to any timeline and each follower merges its posts at read time; every other
author is *pushed*: one timeline write per follower (the author's own timeline write is not
counted, it is the same under every strategy). So T = inf is pure push and T = 0 is pure
pull for every author with at least one follower.

A reader's read sources are 1 (its pushed home timeline) + the number of pulled authors it
follows. Under pure pull (T < 1: every author with a follower is pulled) nothing is pushed,
so no home timeline is kept and a reader merges one list per followee, as the design brief
section 6 counts it; `own_list_under_pull` counts a list of the reader's own posts on top
(1 + followees, the model this module used first). If each source is slow (past its p99)
independently 1% of the time, a read of K sources is slow with probability 1 - 0.99^K,
which is why pull costs tail latency and not only work.

Percentiles are nearest-rank: sort ascending, take index ceil(p / 100 * n) - 1.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console

from feedloom.capacity.graph import Edge

SLOW_SOURCE_PROBABILITY = 0.01


@dataclass(frozen=True)
class FollowerStats:
    """Follower counts over all accounts (accounts nobody follows count as 0)."""

    median: int
    p99: int
    top5: list[tuple[str, int]]


@dataclass(frozen=True)
class SimulationRow:
    """The cost of one threshold; field names are the JSON names."""

    threshold: float
    pulled_authors: int
    writes_per_post_p50: int
    writes_per_post_p99: int
    writes_per_post_max: int
    total_writes: int
    read_sources_p50: int
    read_sources_p99: int
    p_slow_at_p50: float
    p_slow_at_p99: float


@dataclass(frozen=True)
class SimulationResult:
    users: int
    edges: int
    followers: FollowerStats
    rows: list[SimulationRow]


def percentile(values: Sequence[int], p: float) -> int:
    """Nearest-rank percentile of `values` (need not be sorted); p in [0, 100]."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= p <= 100:
        raise ValueError(f"percentile must be in [0, 100], got {p}")
    # Exact decimal arithmetic: in binary floats 99.9 / 100 * 1000 lands a hair above 999,
    # and ceil would then skip a rank. str() gives the decimal the caller wrote.
    rank = math.ceil(Fraction(str(p)) * len(values) / 100)
    return sorted(values)[max(rank, 1) - 1]


def p_slow(sources: int) -> float:
    """Probability that at least one of `sources` independent reads is slow."""
    return 1 - (1 - SLOW_SOURCE_PROBABILITY) ** sources


def parse_thresholds(text: str) -> list[float]:
    """Parse "inf,5000,1000,200,0" into floats, keeping the given order."""
    thresholds: list[float] = []
    for part in text.split(","):
        item = part.strip()
        try:
            value = float(item)
        except ValueError:
            raise ValueError(f"threshold {item!r} is not a number or 'inf'") from None
        if math.isnan(value) or value < 0:
            raise ValueError(f"threshold {item!r} must be >= 0 (or 'inf')")
        thresholds.append(value)
    return thresholds


def simulate(
    edges: Sequence[Edge],
    thresholds: list[float],
    *,
    own_list_under_pull: bool = False,
    row_done: Callable[[int], None] = lambda _done: None,
) -> SimulationResult:
    """Cost of push/pull/hybrid on `edges` for each threshold, in the given order;
    `row_done(1)` after each threshold (a progress bar on big graphs)."""
    unique = set(edges)
    if not unique:
        raise ValueError("the follower graph has no edges")
    if not thresholds:
        raise ValueError("give at least one threshold")
    follower_count: Counter[str] = Counter(followee for _, followee in unique)
    users = sorted({user for edge in unique for user in edge})
    counts = [follower_count[user] for user in users]
    # Per reader, the follower counts of the accounts it follows, sorted: then "how many of
    # my followees have more than T followers" is one bisect per reader and threshold.
    # A user following no one still reads (their own timeline), hence the empty lists.
    followee_counts: dict[str, list[int]] = {user: [] for user in users}
    for follower, followee in unique:
        followee_counts[follower].append(follower_count[followee])
    readers = [sorted(followee_counts[user]) for user in users]
    # Over all users, so a tiny graph still lists min(5, users) accounts; ties by id.
    top5 = sorted(zip(users, counts, strict=True), key=lambda item: (-item[1], item[0]))[:5]
    return SimulationResult(
        users=len(users),
        edges=len(unique),
        followers=FollowerStats(
            median=percentile(counts, 50), p99=percentile(counts, 99), top5=top5
        ),
        rows=[_timed(_row(t, counts, readers, own_list_under_pull), row_done) for t in thresholds],
    )


def _timed(row: SimulationRow, row_done: Callable[[int], None]) -> SimulationRow:
    row_done(1)
    return row


def _row(
    threshold: float, counts: list[int], readers: list[list[int]], own_list_under_pull: bool
) -> SimulationRow:
    """One threshold; `counts` are follower counts, `readers` each reader's followees' counts."""
    writes = [0 if count > threshold else count for count in counts]
    # Pure pull keeps no home timeline (nothing is pushed): only the followees' lists.
    home = 0 if threshold < 1 and not own_list_under_pull else 1
    sources = [home + len(r) - bisect.bisect_right(r, threshold) for r in readers]
    sources_p50 = percentile(sources, 50)
    sources_p99 = percentile(sources, 99)
    return SimulationRow(
        threshold=threshold,
        pulled_authors=sum(count > threshold for count in counts),
        writes_per_post_p50=percentile(writes, 50),
        writes_per_post_p99=percentile(writes, 99),
        writes_per_post_max=max(writes),
        total_writes=sum(writes),
        read_sources_p50=sources_p50,
        read_sources_p99=sources_p99,
        p_slow_at_p50=p_slow(sources_p50),
        p_slow_at_p99=p_slow(sources_p99),
    )


def threshold_label(threshold: float) -> str:
    """The threshold as a user would write it: "inf", "5000" (no ".0"), "12.5"."""
    if math.isinf(threshold):
        return "inf"
    # float(): callers may pass an int, which has no is_integer() before Python 3.12.
    return str(int(threshold)) if float(threshold).is_integer() else f"{threshold:g}"


def _json_threshold(threshold: float) -> float | int | str:
    # JSON has no infinity; integral thresholds print as integers, as the user typed them.
    if math.isinf(threshold):
        return "inf"
    return int(threshold) if float(threshold).is_integer() else threshold


def result_as_dict(result: SimulationResult) -> dict[str, Any]:
    """`{"followers": {median, p99, top5}, "rows": [...]}`, ready for `json.dumps`."""
    rows = []
    for row in result.rows:
        fields = dataclasses.asdict(row)
        fields["threshold"] = _json_threshold(row.threshold)
        rows.append(fields)
    return {
        "followers": {
            "median": result.followers.median,
            "p99": result.followers.p99,
            "top5": [[user, count] for user, count in result.followers.top5],
        },
        "rows": rows,
    }


HEADERS = ("T", "pulled", "p50", "p99", "max", "writes", "p50", "p99", "p50", "p99")
# Labels over the columns they span: (label, first column, last column).
GROUPS = (
    ("writes per post", 2, 4),
    ("total", 5, 5),
    ("read sources", 6, 7),
    ("P(slow read)", 8, 9),
)
GAP = 2


def simulation_lines(result: SimulationResult, width: int = 80) -> list[str]:
    """One row per threshold as plain text that fits `width` columns (80 for the
    brief's 10,000-user graph), with the follower distribution below."""
    cells = [
        [
            threshold_label(row.threshold),
            f"{row.pulled_authors:,}",
            f"{row.writes_per_post_p50:,}",
            f"{row.writes_per_post_p99:,}",
            f"{row.writes_per_post_max:,}",
            f"{row.total_writes:,}",
            f"{row.read_sources_p50:,}",
            f"{row.read_sources_p99:,}",
            f"{row.p_slow_at_p50:.1%}",
            f"{row.p_slow_at_p99:.1%}",
        ]
        for row in result.rows
    ]
    widths = [
        max(len(header), *(len(line[i]) for line in cells)) for i, header in enumerate(HEADERS)
    ]
    for label, first, last in GROUPS:  # a group label wider than its columns widens the last
        spanned = sum(widths[first : last + 1]) + GAP * (last - first)
        widths[last] += max(0, len(label) - spanned)

    def joined(values: Sequence[str]) -> str:
        return (" " * GAP).join(value.rjust(w) for value, w in zip(values, widths, strict=True))

    top5 = ", ".join(f"{user} ({count:,})" for user, count in result.followers.top5)
    return [
        f"Fan-out by pull threshold T ({result.users:,} users, {result.edges:,} edges)",
        _group_line(widths),
        joined(HEADERS),
        *(joined(line) for line in cells),
        f"followers per account: median {result.followers.median:,}, p99 {result.followers.p99:,}",
        *textwrap.wrap(f"most followed: {top5}", width, subsequent_indent="  "),
    ]


def _group_line(widths: list[int]) -> str:
    line = ""
    for label, first, last in GROUPS:
        start = sum(widths[:first]) + GAP * first
        span = sum(widths[first : last + 1]) + GAP * (last - first)
        line = line.ljust(start) + label.rjust(span)
    return line


def render_simulation(result: SimulationResult, console: Console) -> None:
    """Print `simulation_lines`: plain text, never wrapped or styled by the console."""
    for line in simulation_lines(result):
        console.out(line, highlight=False)


def plot_simulation(result: SimulationResult, path: Path) -> None:
    """Total writes (left axis) and read sources p50/p99 (right axis) per threshold, as PNG."""
    # Imported here: matplotlib takes about a second to import, and only --plot needs it.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # The Agg canvas is bound to this figure only: no pyplot global state, no GUI backend.
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    # Thresholds are categories in the user's order: inf cannot sit on a numeric axis.
    x = list(range(len(result.rows)))
    writes_axis = fig.add_subplot()
    writes_axis.plot(
        x, [r.total_writes for r in result.rows], "o-", color="tab:blue", label="total writes"
    )
    writes_axis.set_xticks(x, [threshold_label(r.threshold) for r in result.rows])
    writes_axis.set_xlabel("pull threshold T (followers)")
    writes_axis.set_ylabel("total timeline writes (one post per account)", color="tab:blue")
    writes_axis.set_ylim(bottom=0)
    reads_axis = writes_axis.twinx()
    reads_axis.plot(
        x,
        [r.read_sources_p50 for r in result.rows],
        "s--",
        color="tab:orange",
        label="read sources p50",
    )
    reads_axis.plot(
        x,
        [r.read_sources_p99 for r in result.rows],
        "^--",
        color="tab:red",
        label="read sources p99",
    )
    reads_axis.set_ylabel("read sources per feed open")
    reads_axis.set_ylim(bottom=0)
    lines = [*writes_axis.get_lines(), *reads_axis.get_lines()]
    reads_axis.legend(lines, [str(line.get_label()) for line in lines], loc="center left")
    fig.suptitle(f"Push vs pull on {result.users:,} users: writes fall as reads grow")
    fig.savefig(path, format="png", dpi=100)
