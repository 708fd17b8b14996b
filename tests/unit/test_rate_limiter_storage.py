"""The in-process rate-limit storage overrides a private hook of the `limits` library
(adapters/memory/rate_limiter.py): this fails when an upgrade renames it, before the
embedded default silently sweeps after every hit again."""

from __future__ import annotations

import time

from limits.aio.storage import MemoryStorage

from feedloom.adapters.memory.rate_limiter import SweptMemoryStorage, memory_rate_limiter
from feedloom.ports import RateRule


def test_the_library_still_has_the_sweep_hook_we_override() -> None:
    assert callable(getattr(MemoryStorage, "_MemoryStorage__schedule_expiry", None))


async def test_a_sweep_starts_at_most_once_per_interval() -> None:
    limiter = memory_rate_limiter()
    for key in range(5):
        await limiter.hit(RateRule("posts", 3, 60), str(key))
    storage = limiter._strategy.storage
    assert isinstance(storage, SweptMemoryStorage)
    assert time.monotonic() - storage._last_sweep < SweptMemoryStorage.SWEEP_S
    first = storage.timer
    await limiter.hit(RateRule("posts", 3, 60), "another")
    assert storage.timer is first  # no new sweep task for this hit
