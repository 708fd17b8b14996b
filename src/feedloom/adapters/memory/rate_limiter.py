"""Rate limits: the `limits` library's moving window, plus one charge per request.

The counting is the library's, on its in-process storage here and on Redis in
adapters/redis/rate_limiter.py (the same class, another storage). A moving window
keeps the time of each hit, so no window of `window_s` seconds ever holds more than
`amount` hits, edges included (a fixed window lets twice the limit through across an
edge).

What the library lacks is a charge that a retried request pays once. A mark per
`once` token does that: the first hit claims it as pending, then settles it as
charged (kept for the rule's window) or releases it (refused: the retry is judged
afresh); a concurrent twin that finds it pending waits for that outcome.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Sequence
from typing import Literal, Protocol

from limits.aio.storage import MemoryStorage, MovingWindowSupport, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from feedloom.ports import RateDecision, RateRule
from limits import RateLimitItemPerSecond

Claim = Literal["new", "pending", "charged"]
PENDING_TTL_S = 10  # a first hit that never settles (its process died) stops blocking
WAIT_STEP_S = 0.01
WAIT_STEPS = 300  # a twin waits up to ~3 s for the first hit's outcome


class ChargeMarks(Protocol):
    async def claim(self, token: str) -> Claim:
        """ "new" (and now pending) when no mark existed, else the mark's state."""
        ...

    async def settle(self, token: str, charged: bool, ttl_s: int) -> None: ...


class LimitsRateLimiter:
    """ports.RateLimiter over any `limits` async storage that has a moving window."""

    def __init__(self, storage: Storage, marks: ChargeMarks) -> None:
        assert isinstance(storage, MovingWindowSupport)
        self._strategy = MovingWindowRateLimiter(storage)
        self._marks = marks

    async def hit(self, rule: RateRule, key: str, once: str | None = None) -> RateDecision:
        item = window_item(rule)
        if once is None:
            return await self._charge(item, key)
        token = f"{rule.name}:{key}:{once}"
        for _ in range(WAIT_STEPS):
            claim = await self._marks.claim(token)
            if claim == "charged":
                return await self._decision(item, key, allowed=True)
            if claim == "new":
                decision = await self._charge(item, key)
                await self._marks.settle(token, decision.allowed, rule.window_s)
                return decision
            await asyncio.sleep(WAIT_STEP_S)
        return await self._charge(item, key)

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        """One at a time here (in-process, cheap); the Redis subclass pipelines them."""
        return [await self._strategy.hit(window_item(rule), key) for rule, key in hits]

    async def _charge(self, item: RateLimitItemPerSecond, key: str) -> RateDecision:
        allowed = await self._strategy.hit(item, key)
        return await self._decision(item, key, allowed)

    async def _decision(
        self, item: RateLimitItemPerSecond, key: str, allowed: bool
    ) -> RateDecision:
        stats = await self._strategy.get_window_stats(item, key)
        remaining = max(0, stats.remaining)
        reset_s = 0 if remaining else max(1, math.ceil(stats.reset_time - time.time()))
        return RateDecision(allowed, item.amount, remaining, reset_s)


def window_item(rule: RateRule) -> RateLimitItemPerSecond:
    return RateLimitItemPerSecond(rule.amount, rule.window_s, namespace=rule.name)


class MemoryChargeMarks:
    """Marks in a dict; expired ones are swept now and then, keeping memory bounded by
    the marks of the longest window."""

    SWEEP_EVERY = 1_024

    def __init__(self) -> None:
        self._marks: dict[str, tuple[Claim, float]] = {}
        self._claims = 0

    async def claim(self, token: str) -> Claim:
        now = time.monotonic()
        self._sweep(now)
        found = self._marks.get(token)
        if found is not None and found[1] > now:
            return found[0]
        self._marks[token] = ("pending", now + PENDING_TTL_S)
        return "new"

    async def settle(self, token: str, charged: bool, ttl_s: int) -> None:
        if charged:
            self._marks[token] = ("charged", time.monotonic() + ttl_s)
        else:
            self._marks.pop(token, None)

    def _sweep(self, now: float) -> None:
        self._claims += 1
        if self._claims % self.SWEEP_EVERY == 0:
            self._marks = {k: v for k, v in self._marks.items() if v[1] > now}


class SweptMemoryStorage(MemoryStorage):
    """The library's in-process storage, sweeping expired hits at most every SWEEP_S.

    Its own sweep starts again after every hit once the last one is done, and visits
    every key with a thread hop each: half a core, measured, with 10,000 keys and a
    trickle of hits. Expired hits never count either way (each read compares times), so
    sweeping less often only keeps them in memory a little longer. This overrides the
    library's private hook (limits is pinned; tests/unit/test_rate_limiter_storage.py
    fails if the hook goes)."""

    SWEEP_S = 30.0
    _last_sweep = -SWEEP_S

    async def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep >= self.SWEEP_S:
            self._last_sweep = now
            await super()._MemoryStorage__schedule_expiry()  # type: ignore[misc]


def memory_rate_limiter() -> LimitsRateLimiter:
    """The embedded default's limiter, and the per-process fallback while Redis is down."""
    return LimitsRateLimiter(SweptMemoryStorage(), MemoryChargeMarks())
