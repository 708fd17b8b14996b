"""Follow and block: idempotent writes, the follow rate limit, pushed/pulled re-decided
with hysteresis, and a new followee's recent posts merged into the follower's timeline."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from feedloom.domain.errors import InvalidInput, NotFound, RateLimited
from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.reader_state import ReaderStates
from feedloom.write.relations import Relations
from tests.unit.fakes import (
    FakeAuthorTimelineStore,
    FakeFanoutModes,
    FakeGraphReader,
    FakePostArchive,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRateLimiter,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
    FakeTimelineStore,
    clock,
    id_generator,
    new_post,
    throttle,
    user,
    views_over,
)

POLICY = FanoutPolicy(pull_above=3, push_below=2, bulk_above=1)
ALICE, BOB, CELEB = 1, 2, 3
FANS = [10, 11, 12, 13]


@dataclass
class World:
    ids: IdGenerator
    posts: FakePostStore
    profiles: FakeProfileStore
    relations: FakeRelationStore
    modes: FakeFanoutModes
    timelines: FakeTimelineStore
    limiter: FakeRateLimiter
    use_case: Relations


def world(follows_per_hour: int = 10) -> World:
    profiles = FakeProfileStore(*(user(i) for i in [ALICE, BOB, *FANS]), user(CELEB, 9, True))
    posts, relations = FakePostStore(), FakeRelationStore(profiles)
    modes, timelines, limiter = FakeFanoutModes(profiles), FakeTimelineStore(), FakeRateLimiter()
    author_timelines = AuthorTimelines(FakeAuthorTimelineStore(), FakePostArchive(posts), 20)
    graph = FakeGraphReader(relations, profiles)
    use_case = Relations(
        relations,
        graph,
        profiles,
        modes,
        views_over(posts, profiles),
        ReaderStates(FakeRecordCache(), graph, FakePreferenceStore(), FakeReposts(), FakeTags()),
        timelines,
        author_timelines,
        throttle(limiter, follows=follows_per_hour),
        POLICY,
        clock,
    )
    return World(id_generator(), posts, profiles, relations, modes, timelines, limiter, use_case)


async def test_following_twice_follows_once_and_the_retry_charges_no_rate_limit() -> None:
    w = world(follows_per_hour=1)
    assert await w.use_case.follow(ALICE, BOB) is True
    assert await w.use_case.follow(ALICE, BOB) is False
    assert w.limiter.hits["follows:1"] == 1
    assert w.profiles.by_id[BOB].followers == 1
    with pytest.raises(RateLimited):
        await w.use_case.follow(ALICE, CELEB)


async def test_nobody_can_follow_across_a_block_in_either_direction_it_is_not_there() -> None:
    w = world()
    await w.use_case.block(BOB, ALICE)
    for follower, followee in [(ALICE, BOB), (BOB, ALICE)]:
        with pytest.raises(NotFound):
            await w.use_case.follow(follower, followee)
    assert w.relations.follows == set()


async def test_a_block_removes_follows_both_ways() -> None:
    w = world()
    await w.use_case.follow(ALICE, BOB)
    await w.use_case.follow(BOB, ALICE)
    assert await w.use_case.block(ALICE, BOB) is True
    assert await w.use_case.block(ALICE, BOB) is False
    assert w.relations.follows == set()
    assert w.profiles.by_id[ALICE].followers == w.profiles.by_id[BOB].followers == 0


async def test_an_author_is_pulled_past_pull_above_and_pushed_again_only_below_push_below() -> None:
    w = world()
    for fan in FANS:  # 4 followers > pull_above (3): pulled
        await w.use_case.follow(fan, BOB)
    assert w.modes.changes == [(BOB, True)]
    await w.use_case.unfollow(FANS[0], BOB)  # 3, then 2: not below push_below yet
    await w.use_case.unfollow(FANS[1], BOB)
    assert w.profiles.by_id[BOB].pulled
    await w.use_case.unfollow(FANS[2], BOB)  # 1 < push_below (2): pushed again
    assert w.modes.changes == [(BOB, True), (BOB, False)]


async def test_a_follow_merges_the_followees_recent_posts_into_the_followers_timeline() -> None:
    w = world()
    recent = [new_post(w.ids, BOB) for _ in range(3)]
    w.posts.by_id.update({post.id: post for post in recent})
    w.timelines.ids[ALICE] = set()
    await w.use_case.follow(ALICE, BOB)
    assert w.timelines.ids[ALICE] == {post.id for post in recent}


async def test_following_a_pulled_account_merges_nothing_readers_pull_it() -> None:
    w = world()
    celeb_post = new_post(w.ids, CELEB)
    w.posts.by_id[celeb_post.id] = celeb_post
    w.timelines.ids[ALICE] = set()
    await w.use_case.follow(ALICE, CELEB)
    assert w.timelines.ids[ALICE] == set()


async def test_a_follow_builds_no_missing_timeline() -> None:
    w = world()
    bob_post = new_post(w.ids, BOB)
    w.posts.by_id[bob_post.id] = bob_post
    await w.use_case.follow(ALICE, BOB)
    assert ALICE not in w.timelines.ids  # rebuilt on Alice's next read instead


async def test_nobody_can_follow_themselves_or_a_user_who_does_not_exist() -> None:
    w = world()
    with pytest.raises(InvalidInput):
        await w.use_case.follow(ALICE, ALICE)
    with pytest.raises(NotFound):
        await w.use_case.follow(ALICE, 99)
