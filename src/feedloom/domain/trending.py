"""Trending windows: engagement counted per fixed bucket of one window's length, and
read as the current bucket plus the previous one decayed by how much of the current
bucket has passed. At the top of the hour the previous hour still counts fully; by
its end, only the last hour does. So "trending this hour" slides instead of
resetting to nothing every hour."""

from __future__ import annotations

from datetime import datetime

WINDOWS: dict[str, int] = {"1h": 3_600, "24h": 86_400}  # name -> seconds
LIKE_WEIGHT, COMMENT_WEIGHT = 1.0, 3.0  # as the ranking's engagement term counts them


def bucket_of(window_s: int, at: datetime) -> int:
    return int(at.timestamp() // window_s)


def elapsed_share(window_s: int, at: datetime) -> float:
    """How much of the current bucket has passed, in [0, 1)."""
    return (at.timestamp() % window_s) / window_s


def decayed(current: float, previous: float, elapsed: float) -> float:
    return current + previous * (1.0 - elapsed)
