"""The durable side of notifications: groups folded in place, read markers, switches,
dismissals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from feedloom.domain.notifications import Group, NotificationType, Notified


@dataclass(frozen=True, slots=True)
class NotificationState:
    """What a recipient's notifications page needs besides the groups."""

    read_up_to: int  # the read marker: the newest group ID read
    types_off: frozenset[NotificationType]
    muted: frozenset[int]  # accounts whose notifications the recipient muted


class NotificationStore(Protocol):
    async def apply(
        self, events: Sequence[Notified], new_id: Callable[[], int], now: datetime
    ) -> tuple[list[Group], list[datetime]]:
        """Fold events into their groups, each event exactly once however often it is
        handed in (its outbox row goes in the same transaction); events from accounts
        the recipient blocks, is blocked by or mutes (with notifications) are dropped.
        Returns the groups changed (a group left empty is deleted, returned empty) and
        when each event applied now was written (for the notification lag)."""
        ...

    async def pending(self) -> int:
        """Notification events written and not yet folded (for /metrics)."""
        ...

    async def groups(self, recipient_id: int, before: int | None, limit: int) -> list[Group]:
        """Newest first (by group ID), strictly older than `before`."""
        ...

    async def state(self, recipient_id: int) -> NotificationState: ...
    async def mark_read(self, recipient_id: int, up_to: int, at: datetime) -> int:
        """Move the marker to `up_to` unless it is already further (a move counts in its
        version and sets its time, `at`); the marker now."""
        ...

    async def set_types_off(
        self, recipient_id: int, types: frozenset[NotificationType]
    ) -> None: ...

    async def dismiss(self, recipient_id: int, group_id: int) -> bool:
        """Delete the recipient's group with this ID; whether there was one. A later
        activity of the same key starts a new group."""
        ...

    async def clear(self, recipient_id: int) -> None:
        """Delete every group of the recipient."""
        ...
