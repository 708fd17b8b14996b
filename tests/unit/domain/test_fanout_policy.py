from __future__ import annotations

import pytest

from feedloom.domain.fanout_policy import FanoutPolicy


def test_an_author_becomes_pulled_only_above_the_threshold() -> None:
    policy = FanoutPolicy(pull_above=10_000, push_below=8_000)
    assert not policy.is_pulled(10_000, currently_pulled=False)
    assert policy.is_pulled(10_001, currently_pulled=False)


def test_hysteresis_keeps_a_pulled_author_pulled_until_below_push_below() -> None:
    policy = FanoutPolicy(pull_above=10_000, push_below=8_000)
    assert policy.is_pulled(9_000, currently_pulled=True)
    assert policy.is_pulled(8_000, currently_pulled=True)
    assert not policy.is_pulled(7_999, currently_pulled=True)


def test_an_author_hovering_at_the_threshold_does_not_flip() -> None:
    policy = FanoutPolicy(pull_above=100, push_below=80)
    pulled = False
    flips = 0
    for followers in [99, 101, 99, 101, 95, 102, 90]:
        now_pulled = policy.is_pulled(followers, pulled)
        flips += now_pulled != pulled
        pulled = now_pulled
    assert flips == 1


def test_big_pushed_authors_go_to_the_bulk_lane() -> None:
    policy = FanoutPolicy(bulk_above=1_000)
    assert policy.is_bulk(1_001)
    assert not policy.is_bulk(1_000)


def test_pulled_authors_merged_per_read_are_capped_stably() -> None:
    policy = FanoutPolicy(max_pulled_per_read=2)
    assert policy.pulled_to_merge([30, 10, 20]) == [10, 20]


def test_push_below_above_pull_above_is_refused() -> None:
    with pytest.raises(ValueError):
        FanoutPolicy(pull_above=5, push_below=6)
