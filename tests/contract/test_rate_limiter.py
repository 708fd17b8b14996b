"""Contract: moving-window rate limits with charge-once requests (RateLimiter), on
every adapter."""

from __future__ import annotations

import asyncio
import time

from feedloom.ports import RateRule
from tests.contract.conftest import Caches

HOUR = 3_600
POSTS = RateRule("posts", 3, HOUR)


async def test_hits_up_to_the_limit_pass_and_the_next_is_told_how_long_to_wait(
    caches: Caches,
) -> None:
    limiter = caches.rate_limiter()
    passed = [await limiter.hit(POSTS, "1") for _ in range(3)]
    assert [d.allowed for d in passed] == [True, True, True]
    assert [d.remaining for d in passed] == [2, 1, 0]
    refused = await limiter.hit(POSTS, "1")
    assert not refused.allowed
    assert (refused.limit, refused.remaining) == (3, 0)
    assert 1 <= refused.reset_s <= HOUR


async def test_each_key_and_rule_has_its_own_window(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    one = RateRule("posts", 1, HOUR)
    assert (await limiter.hit(one, "1")).allowed
    assert not (await limiter.hit(one, "1")).allowed
    assert (await limiter.hit(one, "2")).allowed
    assert (await limiter.hit(RateRule("follows", 1, HOUR), "1")).allowed


async def test_a_window_moves_so_no_edge_lets_a_second_burst_through(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    rule = RateRule("burst", 2, 4)
    started = time.monotonic()
    assert all([(await limiter.hit(rule, "1")).allowed for _ in range(2)])
    await asyncio.sleep(1)  # a fixed window may have turned over by now; a moving one not
    assert not (await limiter.hit(rule, "1")).allowed
    await asyncio.sleep(max(0.0, 4.3 - (time.monotonic() - started)))
    assert (await limiter.hit(rule, "1")).allowed


async def test_a_batch_of_hits_counts_as_one_hit_after_another(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    two = RateRule("posts", 2, HOUR)
    other = RateRule("follows", 1, HOUR)
    batch = [(two, "1"), (other, "1"), (two, "1"), (two, "2"), (two, "1"), (other, "1")]
    assert await limiter.hit_many(batch) == [True, True, True, True, False, False]
    assert await limiter.hit_many([]) == []
    assert not (await limiter.hit(two, "1")).allowed  # the batch charged the shared window
    assert (await limiter.hit(two, "2")).allowed
    assert await limiter.hit_many([(two, "2")]) == [False]


async def test_a_request_sent_again_under_one_key_is_charged_once(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    one = RateRule("posts", 1, HOUR)
    assert (await limiter.hit(one, "1", once="key-a")).allowed
    assert (await limiter.hit(one, "1", once="key-a")).allowed
    assert not (await limiter.hit(one, "1", once="key-b")).allowed
    assert not (await limiter.hit(one, "1")).allowed


async def test_concurrent_retries_of_one_request_are_charged_once(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    two = RateRule("posts", 2, HOUR)
    retries = await asyncio.gather(*(limiter.hit(two, "1", once="key-a") for _ in range(5)))
    assert all(d.allowed for d in retries)
    assert (await limiter.hit(two, "1")).allowed
    assert not (await limiter.hit(two, "1")).allowed


async def test_a_refused_request_is_judged_afresh_when_sent_again(caches: Caches) -> None:
    limiter = caches.rate_limiter()
    one = RateRule("posts", 1, HOUR)
    assert (await limiter.hit(one, "1")).allowed
    assert not (await limiter.hit(one, "1", once="key-a")).allowed
    assert not (await limiter.hit(one, "1", once="key-a")).allowed
