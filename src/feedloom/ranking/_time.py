"""Time helpers shared by the ranking math: aware-datetime checks and clamped ages.

Every `now` is passed in by the caller; nothing here reads a clock.
"""

from __future__ import annotations

import math
from datetime import datetime

SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86400.0


def require_aware(value: datetime, name: str) -> None:
    """Refuse naive datetimes: mixing them with aware ones would skew every age silently."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware (UTC) datetime, got naive {value!r}")


def require_positive_finite(value: float, name: str) -> None:
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


def age_seconds(then: datetime, now: datetime) -> float:
    """Seconds from `then` to `now`, never negative.

    A timestamp ahead of `now` (clock skew between hosts) counts as age 0, so skew
    can neither boost a score past "brand new" nor grow an affinity.
    """
    return max(0.0, (now - then).total_seconds())
