"""Relay: put committed outbox events on the event queue, and again if a stream lost them.

The relay decides what the worker would otherwise look up per post: the lane (posts of
big-but-pushed authors go to the bulk lane, so their long fan-outs never hold up
ordinary posts) and whether the author is pulled (carried in the event).

The outbox keeps an event until its fan-out is done. Each sent event records its
lane's stream epoch, read *before* the send: if the stream is lost afterwards (a Redis
failover, a deleted key), the epoch changes and `resend_lost` sends the event again.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import timedelta

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import AuthorPushed, Event, PostPublished, UserProfile
from feedloom.metrics import Metrics
from feedloom.ports import Clock, EventQueue, Lane, Outbox, ProfileStore

log = logging.getLogger(__name__)
RELAY_BATCH = 1000


class RelayOutbox:
    def __init__(
        self,
        outbox: Outbox,
        profiles: ProfileStore,
        queue: EventQueue,
        policy: FanoutPolicy,
        clock: Clock,
        metrics: Metrics,
        lost_after: timedelta,
    ) -> None:
        self._outbox, self._profiles, self._queue, self._policy = outbox, profiles, queue, policy
        self._clock, self._metrics = clock, metrics
        # A sent event is checked for loss only after `lost_after`: a relay between its
        # claim and recording the epoch (adapters/sql/outbox.py) is not a lost stream.
        self._lost_after = lost_after

    async def __call__(self, limit: int = RELAY_BATCH) -> int:
        """Relay up to `limit` new events; returns how many moved."""
        # The epochs first, before the send (module doc), and before the claim: with
        # Redis away nothing is claimed, and the events go as soon as it is back.
        epochs = await self._queue.epochs()
        events = await self._outbox.claim_unsent(limit, self._clock())
        await self._send(events, epochs)
        return len(events)

    async def resend_lost(self, limit: int = RELAY_BATCH) -> int:
        """Send again the events whose stream was lost before their fan-out was done."""
        epochs = await self._queue.epochs()
        now = self._clock()
        events = await self._outbox.claim_lost(epochs, now - self._lost_after, limit, now)
        if events:
            log.warning("re-sending %d events whose stream was lost", len(events))
            self._metrics.lost_events_resent.inc(len(events))
        await self._send(events, epochs)
        return len(events)

    async def _send(self, events: Sequence[Event], epochs: dict[str, str]) -> None:
        for lane, lane_events in (await self._by_lane(events)).items():
            await self._queue.publish(lane_events, lane)
            await self._outbox.mark_sent([e.seq for e in lane_events], lane, epochs[lane])

    async def _by_lane(self, events: Sequence[Event]) -> dict[Lane, list[Event]]:
        authors = {event.author_id for event in events if isinstance(event, PostPublished)}
        profiles = await self._profiles.profiles(list(authors))
        lanes: dict[Lane, list[Event]] = {"default": [], "bulk": []}
        for event in events:
            if isinstance(event, PostPublished):
                lane, event = self._decide(event, profiles.get(event.author_id))
                lanes[lane].append(event)
            else:  # a back-fill is as long as a big fan-out: the bulk lane
                lanes["bulk" if isinstance(event, AuthorPushed) else "default"].append(event)
        return {lane: lane_events for lane, lane_events in lanes.items() if lane_events}

    def _decide(
        self, event: PostPublished, author: UserProfile | None
    ) -> tuple[Lane, PostPublished]:
        pulled = author is not None and author.pulled
        bulky = author is not None and not pulled and self._policy.is_bulk(author.followers)
        return ("bulk" if bulky else "default"), dataclasses.replace(event, pulled=pulled)
