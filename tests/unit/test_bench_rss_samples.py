"""A soak's memory figures (`feedloom bench mixed --duration 1800`): the API process'
RSS is sampled through the load, and its growth after warm-up is what is reported."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from feedloom.bench import mixed_command
from feedloom.bench.target import Target


class GrowingServer:
    def __init__(self) -> None:
        self.rss = 100.0

    def api_rss_mb(self) -> float:
        self.rss += 1.0
        return self.rss


async def test_rss_is_sampled_from_the_start_of_the_load_until_it_ends() -> None:
    target = Target("http://x", {}, {}, "test", None, cast(Any, GrowingServer()))
    async with mixed_command._sampled_rss(target, every_s=0.01) as samples:
        await asyncio.sleep(0.2)
    taken = len(samples)
    await asyncio.sleep(0.05)
    assert taken >= 3 and len(samples) == taken  # none after the load ended
    assert samples == sorted(samples)


def test_growth_is_measured_over_the_last_two_thirds_of_the_samples() -> None:
    result: dict[str, Any] = {"api_rss_samples_mb": [100.0, 140.0, 150.0, 151.0, 152.0, 153.0]}
    assert mixed_command._growth(result) == 153.0 - 150.0
    assert mixed_command._growth({"api_rss_samples_mb": [1.0, 2.0]}) is None
