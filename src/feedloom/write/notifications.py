"""Notifications on the write side: the worker folds notification events into groups;
a reader moves their read marker, turns types on or off, dismisses or clears.

The worker's step runs in every consumed batch (write/worker.py), beside the fan-out:
the store folds each event exactly once (adapters/sql/notifications.py), then the
recipients' cached records are dropped (they are rebuilt on the next read) and their
open streams told. An invalidation that fails fails the batch, which is delivered
again: the events are not folded twice, and the records are dropped that time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta

from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.ids import created_at_of
from feedloom.domain.notifications import NotificationType, Notified, notifies
from feedloom.lookups.notices import Notices
from feedloom.lookups.notifications import NotificationRecords
from feedloom.metrics import Metrics
from feedloom.ports import Clock, Delivery, NotificationStore

MARKER_MOVED = 0  # a live notice without a group: the read marker moved
CLOCK_SKEW = timedelta(seconds=5)  # an ID this far past our clock is from the future


class FoldNotifications:
    def __init__(
        self,
        store: NotificationStore,
        records: NotificationRecords,
        notices: Notices,
        new_id: Callable[[], int],
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._store, self._records, self._notices = store, records, notices
        self._new_id, self._clock, self._metrics = new_id, clock, metrics

    async def handle(self, deliveries: Sequence[Delivery]) -> None:
        events = [
            d.event for d in deliveries if isinstance(d.event, Notified) and notifies(d.event)
        ]
        if not events:
            return
        now = self._clock()
        changed, written = await self._store.apply(events, self._new_id, now)
        await self._records.changed(event.recipient_id for event in events)
        for at in written:
            self._metrics.notification_lag.observe(max((now - at).total_seconds(), 0.0))
        self._metrics.notification_group_writes.inc(len(changed))
        for group in changed:
            await self._notices.notified(group.recipient_id, group.id)


class NotificationSettings:
    """The read marker, the per-type switches and the dismissals of one reader."""

    def __init__(
        self, store: NotificationStore, records: NotificationRecords, notices: Notices, clock: Clock
    ) -> None:
        self._store, self._records, self._notices, self._clock = store, records, notices, clock

    async def mark_read(self, user_id: int, up_to: int) -> int:
        """Idempotent, and never backwards; an ID from the future is refused."""
        if created_at_of(up_to) > self._clock() + CLOCK_SKEW:
            raise InvalidInput("up_to is an ID from the future")
        marker = await self._store.mark_read(user_id, up_to, self._clock())
        await self._changed(user_id)
        return marker

    async def dismiss(self, user_id: int, group_id: int) -> None:
        """Remove one notification (a group) for good; NotFound when there is none."""
        if not await self._store.dismiss(user_id, group_id):
            raise NotFound("Notification not found")
        await self._changed(user_id)

    async def clear(self, user_id: int) -> None:
        """Remove every notification of the reader."""
        await self._store.clear(user_id)
        await self._changed(user_id)

    async def _changed(self, user_id: int) -> None:
        await self._records.changed([user_id])
        await self._notices.notified(user_id, MARKER_MOVED)  # the other devices' badges, lists

    async def switches(self, user_id: int) -> dict[NotificationType, bool]:
        off = (await self._records.get(user_id)).state.types_off
        return {kind: kind not in off for kind in NotificationType}

    async def switch(self, user_id: int, changes: Mapping[NotificationType, bool]) -> None:
        """Turn these types on (true) or off; the others stay as they are."""
        off = (await self._store.state(user_id)).types_off
        off = (off | {kind for kind, on in changes.items() if not on}) - {
            kind for kind, on in changes.items() if on
        }
        await self._store.set_types_off(user_id, frozenset(off))
        await self._records.changed([user_id])
