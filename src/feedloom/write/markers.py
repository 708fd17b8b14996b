"""Read markers as Mastodon apps keep them: the home timeline's (an entry ID, set as
given) and the notifications' (the read marker of NotificationSettings.mark_read, so
it never moves backwards and the unread count and the other devices follow it)."""

from __future__ import annotations

from collections.abc import Iterable

from feedloom.ports import Clock, Marker, MarkerStore
from feedloom.write.notifications import NotificationSettings

TIMELINES = ("home", "notifications")


class Markers:
    def __init__(
        self, store: MarkerStore, notifications: NotificationSettings, clock: Clock
    ) -> None:
        self._store, self._notifications, self._clock = store, notifications, clock

    async def get(self, user_id: int, timelines: Iterable[str]) -> dict[str, Marker]:
        """The markers of these timelines that were ever set (unknown names: none)."""
        wanted = set(timelines)
        found = await self._store.markers(user_id) if wanted else {}
        return {name: marker for name, marker in found.items() if name in wanted}

    async def set(
        self, user_id: int, home: int | None, notifications: int | None
    ) -> dict[str, Marker]:
        """Set either or both; the markers set, as they are now."""
        if notifications is not None:
            await self._notifications.mark_read(user_id, notifications)
        if home is not None:
            await self._store.set_home(user_id, home, self._clock())
        named = (("home", home), ("notifications", notifications))
        return await self.get(user_id, [name for name, value in named if value is not None])
