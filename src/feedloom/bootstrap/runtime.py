"""Process-wide runtime values every use case may need: the clock, IDs, metrics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from feedloom.domain.ids import IdGenerator
from feedloom.metrics import Metrics
from feedloom.ports import Clock


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Runtime:
    clock: Clock
    ids: IdGenerator
    metrics: Metrics
