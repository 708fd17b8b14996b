"""Follower and like spikes per account: counted as they happen (batched like the
counters, flushed by the worker), found by comparing this hour with the day before
(domain/spikes.py). Moderators list them (GET /v1/moderation/spikes); the worker
keeps the `feedloom_engagement_spike_accounts` gauge current for alerting."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from feedloom.domain.spikes import HISTORY_HOURS, SpikeKind, hour_of, is_spike, zscore
from feedloom.metrics import Metrics
from feedloom.ports import Clock, HourlyTallies

CANDIDATES = 100  # the busiest accounts of the hour are the only ones checked


@dataclass(frozen=True, slots=True)
class Spike:
    account_id: int
    kind: SpikeKind
    this_hour: int
    hourly_mean: float
    z: float


class SpikeTally:
    def __init__(self, store: HourlyTallies, clock: Clock) -> None:
        self._store, self._clock = store, clock
        self._counts: dict[SpikeKind, Counter[int]] = {kind: Counter() for kind in SpikeKind}

    def add(self, kind: SpikeKind, account_id: int) -> None:
        self._counts[kind][account_id] += 1

    async def flush(self) -> int:
        hour, flushed = hour_of(self._clock()), 0
        for kind, counts in self._counts.items():
            if counts:
                self._counts[kind] = Counter()
                await self._store.add(kind.value, counts, hour)
                flushed += len(counts)
        return flushed


class Spikes:
    def __init__(self, store: HourlyTallies, metrics: Metrics, clock: Clock) -> None:
        self._store, self._metrics, self._clock = store, metrics, clock

    async def find(self, kind: SpikeKind) -> list[Spike]:
        """Accounts far above their own last day this hour, the steepest first."""
        hour = hour_of(self._clock())
        busiest = await self._store.busiest(kind.value, hour, CANDIDATES)
        past = list(range(hour - HISTORY_HOURS, hour))
        history = await self._store.history(kind.value, [a for a, _ in busiest], past)
        spikes = [
            Spike(account, kind, count, statistics.fmean(history[account]), z)
            for account, count in busiest
            if is_spike(count, history[account]) and (z := zscore(count, history[account]))
        ]
        self._metrics.engagement_spikes.labels(kind.value).set(len(spikes))
        return sorted(spikes, key=lambda spike: -spike.z)

    async def watch(self) -> int:
        """For the worker: refresh the gauge of every kind."""
        for kind in SpikeKind:
            await self.find(kind)
        return 1
