"""Throttle: rules by action, a share for young accounts, RateLimited with the numbers;
and the Redis limiter's per-process fallback, which never fails open."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from feedloom.adapters.memory.rate_limiter import memory_rate_limiter
from feedloom.adapters.redis.degraded import DegradedRateLimiter
from feedloom.domain.errors import RateLimited
from feedloom.domain.ids import lowest_id_at
from feedloom.ports import RateDecision, RateRule
from tests.unit.fakes import NOW, FakeRateLimiter, throttle

OLD_ACCOUNT = 7  # a Snowflake of the epoch: years old


async def test_past_the_limit_the_refusal_says_the_limit_and_the_wait() -> None:
    limiter = FakeRateLimiter()
    posts = throttle(limiter, posts=2)
    await posts.account("posts", OLD_ACCOUNT)
    await posts.account("posts", OLD_ACCOUNT)
    with pytest.raises(RateLimited) as refused:
        await posts.account("posts", OLD_ACCOUNT)
    assert (refused.value.limit, refused.value.remaining, refused.value.retry_after_s) == (2, 0, 60)
    assert "at most 2 per minute" in refused.value.detail


async def test_a_young_account_gets_its_share_and_an_old_one_the_whole_limit() -> None:
    limiter = FakeRateLimiter()
    posts = throttle(limiter, young_share=0.5, posts=4)
    young = _minted_at_now()
    for _ in range(2):
        await posts.account("posts", young)
    with pytest.raises(RateLimited):
        await posts.account("posts", young)
    for _ in range(4):
        await posts.account("posts", OLD_ACCOUNT)
    assert limiter.hits == {f"posts.young:{young}": 2, f"posts:{OLD_ACCOUNT}": 4}


class Unreachable:
    async def hit(self, rule: RateRule, key: str, once: str | None = None) -> RateDecision:
        raise RedisConnectionError("Redis is down")

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        raise RedisConnectionError("Redis is down")


async def test_while_redis_is_down_each_process_still_limits() -> None:
    outages: list[str] = []
    limiter = DegradedRateLimiter(Unreachable(), memory_rate_limiter(), outages.append)
    rule = RateRule("posts", 30, 60)
    decisions = [await limiter.hit(rule, "1") for _ in range(100)]
    assert sum(d.allowed for d in decisions) == 30
    assert outages and set(outages) == {"rate_limiter"}


def _minted_at_now() -> int:
    """An ID minted at the fake clock's NOW: an account created just now."""
    return lowest_id_at(NOW) + 1
