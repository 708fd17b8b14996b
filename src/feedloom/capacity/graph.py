"""Follower graphs for the fan-out simulation: read/write an edge CSV, or generate one.

An edge is `(follower, followee)`: the follower sees the followee's posts. IDs are strings
throughout, so integer and string IDs from a CSV behave the same.
"""

from __future__ import annotations

import bisect
import csv
import io
import itertools
import random
from collections.abc import Iterable
from pathlib import Path

Edge = tuple[str, str]

HEADER = ("follower", "followee")

# Generator parameters (see `generate_graph`).
MIN_FOLLOWS = 10
MAX_FOLLOWS = 149
PARETO_ALPHA = 1.8
BIG_ACCOUNT_SHARE_OF_USERS = 0.005
BIG_ACCOUNT_FOLLOWED_BY = (0.3, 0.6)


class GraphFormatError(ValueError):
    """An edge CSV that cannot be read; the message names the 1-based line."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


def read_graph_csv(path: Path) -> list[Edge]:
    """Read `follower,followee` rows, de-duplicated in first-seen order.

    The header must be exactly `follower,followee`. Surrounding spaces in a field are
    ignored and wholly blank lines are skipped; any other malformed row (column count,
    empty field, self-follow, broken quoting) is a `GraphFormatError` naming its line.
    """
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Decode up front: a streaming decoder fails a whole buffer ahead of the bad line.
        line = data[: exc.start].count(b"\n") + 1
        raise GraphFormatError(line, "not valid UTF-8 text") from exc
    # StringIO, not str.splitlines: only \n and \r end a CSV line, not \x0c or \u2028.
    return parse_graph_csv(io.StringIO(text, newline=""))


def parse_graph_csv(lines: Iterable[str]) -> list[Edge]:
    """`read_graph_csv` on text lines that keep their line endings."""
    reader = csv.reader(lines, strict=True)
    seen: dict[Edge, None] = {}
    try:
        header = next(reader, None)
        if header is None or tuple(field.strip() for field in header) != HEADER:
            got = "an empty file" if header is None else ",".join(header)
            raise GraphFormatError(1, f"header must be exactly 'follower,followee', got {got!r}")
        for row in reader:
            if row:
                # line_num counts physical lines, so it stays right even with quoted newlines.
                seen.setdefault(_parse_edge(row, reader.line_num), None)
    except csv.Error as exc:
        raise GraphFormatError(reader.line_num, str(exc)) from exc
    return list(seen)


def _parse_edge(row: list[str], line: int) -> Edge:
    if len(row) != 2:
        raise GraphFormatError(line, f"expected 2 columns (follower,followee), got {len(row)}")
    follower, followee = (field.strip() for field in row)
    if not follower or not followee:
        raise GraphFormatError(line, "empty follower or followee")
    if follower == followee:
        raise GraphFormatError(line, f"account {follower!r} follows itself")
    return follower, followee


def write_graph_csv(edges: Iterable[Edge], path: Path) -> None:
    """Write edges with the header `read_graph_csv` expects."""
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(edges)


def generate_graph(users: int, seed: int) -> list[Edge]:
    """A heavy-tailed follower graph over IDs "1".."users", deterministic for `seed`.

    Model, in two parts:

    1. Ordinary follows. Every account gets a popularity weight drawn from a Pareto
       distribution (alpha = 1.8, minimum 1), so a few accounts are very popular and most
       are not. Each user follows a uniform 10..149 distinct other accounts (capped at
       users - 1), each drawn with probability proportional to its weight.
    2. Big accounts. The ~0.5% highest-weight accounts (at least one) are celebrities:
       each is given a share drawn uniformly from 30-60%, and every other user follows it
       with that probability, on top of the ordinary follows.

    Follower counts are therefore long-tailed (median tens, p99 hundreds, a few accounts
    at thousands), which is what makes pure push expensive and pure pull slow.
    """
    if users < 2:
        raise ValueError("a follower graph needs at least 2 users")
    rng = random.Random(seed)
    ids = [str(i) for i in range(1, users + 1)]
    weights = [rng.paretovariate(PARETO_ALPHA) for _ in ids]
    cum_weights = list(itertools.accumulate(weights))
    big_count = max(1, round(users * BIG_ACCOUNT_SHARE_OF_USERS))
    big = sorted(range(users), key=lambda i: (-weights[i], i))[:big_count]
    big_share = {b: rng.uniform(*BIG_ACCOUNT_FOLLOWED_BY) for b in big}

    edges: list[Edge] = []
    for user in range(users):
        count = min(rng.randint(MIN_FOLLOWS, MAX_FOLLOWS), users - 1)
        followees = _draw_followees(rng, user, count, weights, cum_weights)
        for b in big:
            if b != user and rng.random() < big_share[b]:
                followees.setdefault(b, None)
        edges.extend((ids[user], ids[followee]) for followee in followees)
    return edges


def _draw_followees(
    rng: random.Random, user: int, count: int, weights: list[float], cum_weights: list[float]
) -> dict[int, None]:
    """`count` distinct indexes other than `user`, weighted; a dict keeps draw order stable."""
    others = len(weights) - 1
    if 2 * count > others:
        # Dense case (tiny graphs): rejection sampling would loop on the last few unpopular
        # accounts, so use weighted sampling without replacement (Efraimidis-Spirakis).
        keys = [(rng.random() ** (1 / w), i) for i, w in enumerate(weights) if i != user]
        return dict.fromkeys(i for _, i in sorted(keys, reverse=True)[:count])
    chosen: dict[int, None] = {}
    total = cum_weights[-1]
    while len(chosen) < count:
        # Inline of random.choices(cum_weights=...): same distribution, no list per draw.
        i = bisect.bisect(cum_weights, rng.random() * total, 0, len(cum_weights) - 1)
        if i != user:
            chosen.setdefault(i, None)
    return chosen
