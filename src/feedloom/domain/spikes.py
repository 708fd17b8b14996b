"""Sudden follower or like spikes on an account: this hour against the hours before.

A z-score, `(this hour - mean) / standard deviation` of the previous hours, with the
deviation floored at one so a quiet account's first busy hour is not infinite, and a
minimum count so a handful of likes never raises an alarm. Bought followers and like
rings show up as a few accounts far above their own history.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum

HOUR_S = 3_600
HISTORY_HOURS = 24
SPIKE_Z = 4.0
SPIKE_MIN = 20  # this hour's count below which nothing is a spike


class SpikeKind(StrEnum):
    FOLLOWERS = "followers"
    LIKES = "likes"


def hour_of(at: datetime) -> int:
    return int(at.timestamp() // HOUR_S)


def zscore(current: int, history: Sequence[int]) -> float:
    mean = statistics.fmean(history) if history else 0.0
    deviation = statistics.pstdev(history) if len(history) > 1 else 0.0
    return (current - mean) / max(deviation, 1.0)


def is_spike(current: int, history: Sequence[int]) -> bool:
    return current >= SPIKE_MIN and zscore(current, history) >= SPIKE_Z
