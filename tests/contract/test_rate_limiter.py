"""Contract: fixed-window rate limits (RateLimiter), on every adapter."""

from __future__ import annotations

from tests.contract.conftest import Caches

HOUR = 3_600  # a long window: the test never straddles a window boundary in practice


async def test_hits_up_to_the_limit_pass_and_the_next_must_wait(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    assert [await limiter.hit("posts:1", 3, HOUR) for _ in range(3)] == [0, 0, 0]
    wait = await limiter.hit("posts:1", 3, HOUR)
    assert 1 <= wait <= HOUR


async def test_each_key_has_its_own_window(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    await limiter.hit("posts:1", 1, HOUR)
    assert await limiter.hit("posts:1", 1, HOUR) > 0
    assert await limiter.hit("posts:2", 1, HOUR) == 0
    assert await limiter.hit("follows:1", 1, HOUR) == 0
