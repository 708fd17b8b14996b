"""Read markers as Mastodon apps keep them (`/api/v1/markers`): where a reader last read
their home timeline and their notifications, each with a version and a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Marker:
    last_read_id: int
    version: int  # how many times it moved
    updated_at: datetime


class MarkerStore(Protocol):
    async def markers(self, user_id: int) -> dict[str, Marker]:
        """The markers set so far, by timeline ("home", "notifications"); the
        notifications one is the read marker of NotificationStore.mark_read."""
        ...

    async def set_home(self, user_id: int, last_read_id: int, at: datetime) -> None: ...
