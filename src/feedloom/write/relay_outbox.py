"""Relay: move committed outbox events onto the event queue.

Posts of big-but-pushed authors go to the bulk lane, so their long fan-outs never
hold up ordinary posts.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import Event, PostPublished
from feedloom.ports import EventQueue, Lane, Outbox, ProfileStore

RELAY_BATCH = 500


class RelayOutbox:
    def __init__(
        self, outbox: Outbox, profiles: ProfileStore, queue: EventQueue, policy: FanoutPolicy
    ) -> None:
        self._outbox, self._profiles, self._queue, self._policy = outbox, profiles, queue, policy

    async def __call__(self, limit: int = RELAY_BATCH) -> int:
        """Relay up to `limit` events; returns how many moved."""
        return await self._outbox.relay(self._publish, limit)

    async def _publish(self, events: Sequence[Event]) -> None:
        for lane, lane_events in (await self._by_lane(events)).items():
            await self._queue.publish(lane_events, lane)

    async def _by_lane(self, events: Sequence[Event]) -> dict[Lane, list[Event]]:
        authors = {event.author_id for event in events if isinstance(event, PostPublished)}
        profiles = await self._profiles.profiles(list(authors))
        lanes: dict[Lane, list[Event]] = {"default": [], "bulk": []}
        for event in events:
            profile = profiles.get(event.author_id)
            bulky = (
                isinstance(event, PostPublished)
                and profile is not None
                and not profile.pulled
                and self._policy.is_bulk(profile.followers)
            )
            lanes["bulk" if bulky else "default"].append(event)
        return {lane: lane_events for lane, lane_events in lanes.items() if lane_events}
