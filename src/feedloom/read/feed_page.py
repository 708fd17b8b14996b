"""What one feed request returns, whichever order produced it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from feedloom.domain.model import FeedItem, FeedOrder
from feedloom.metrics import Metrics


@dataclass
class FeedPage:
    items: list[FeedItem]
    next_cursor: str | None
    order: FeedOrder
    filtered: Counter[str] = field(default_factory=Counter)
    # Why a ranked request was served chronologically ("error" or "timeout"), if it was.
    fallback: str | None = None
    # A generator's page: in the generator's order, not one of ours (rendered as null).
    generated: bool = False


def count_filtered(metrics: Metrics, filtered: Counter[str]) -> None:
    for reason, count in filtered.items():
        metrics.filtered.labels(reason).inc(count)
