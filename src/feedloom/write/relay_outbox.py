"""Relay: move committed outbox events onto the event queue.

Posts of big-but-pushed authors go to the bulk lane, so their long fan-outs never
hold up ordinary posts.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.backend import Backend
from feedloom.domain.model import Event, PostPublished
from feedloom.ports import Lane

RELAY_BATCH = 500


async def relay_outbox(backend: Backend, limit: int = RELAY_BATCH) -> int:
    async def publish(events: Sequence[Event]) -> None:
        for lane, lane_events in (await _by_lane(backend, events)).items():
            await backend.queue.publish(lane_events, lane)

    return await backend.outbox.relay(publish, limit)


async def _by_lane(backend: Backend, events: Sequence[Event]) -> dict[Lane, list[Event]]:
    authors = {event.author_id for event in events if isinstance(event, PostPublished)}
    profiles = await backend.accounts.profiles(list(authors))
    lanes: dict[Lane, list[Event]] = {"default": [], "bulk": []}
    for event in events:
        profile = profiles.get(event.author_id)
        bulky = (
            isinstance(event, PostPublished)
            and profile is not None
            and not profile.pulled
            and backend.policy.is_bulk(profile.followers)
        )
        lanes["bulk" if bulky else "default"].append(event)
    return {lane: lane_events for lane, lane_events in lanes.items() if lane_events}
