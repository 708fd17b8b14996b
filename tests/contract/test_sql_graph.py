"""SocialGraph contract on SQLite and PostgreSQL: idempotent relations that keep the
denormalized counts in step, and keyset paging over a followee's followers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.ports import Followee
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def counts(store: SqlStore, user_id: int) -> tuple[int, int]:
    profile = (await store.accounts.profiles([user_id]))[user_id]
    return profile.followers, profile.following


async def test_follow_and_unfollow_count_once_however_often_they_are_repeated(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    assert await store.graph.follow(bob, alice, NOW) is True
    assert await store.graph.follow(bob, alice, NOW) is False
    assert (await counts(store, alice), await counts(store, bob)) == ((1, 0), (0, 1))
    assert await store.graph.is_following(bob, alice)
    assert await store.graph.unfollow(bob, alice) is True
    assert await store.graph.unfollow(bob, alice) is False
    assert (await counts(store, alice), await counts(store, bob)) == ((0, 0), (0, 0))


async def test_concurrent_follows_of_one_pair_count_one_follower(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    created = await asyncio.gather(*(store.graph.follow(bob, alice, NOW) for _ in range(6)))
    assert created.count(True) == 1
    assert await counts(store, alice) == (1, 0)


async def test_a_block_removes_follows_both_ways_and_their_counts(store: SqlStore) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    for follower, followee in ((alice, bob), (bob, alice), (carol, alice)):
        await store.graph.follow(follower, followee, NOW)
    assert await store.graph.block(alice, bob, NOW) is True
    assert await store.graph.block(alice, bob, NOW) is False
    assert not await store.graph.is_following(alice, bob)
    assert not await store.graph.is_following(bob, alice)
    assert (await counts(store, alice), await counts(store, bob)) == ((1, 0), (0, 0))
    assert await store.graph.is_blocked_either_way(bob, alice)
    assert await store.graph.blocked_either_way(bob) == {alice}
    assert await store.graph.unblock(alice, bob) is True
    assert not await store.graph.is_blocked_either_way(alice, bob)


async def test_follower_batches_page_through_every_follower_once_in_id_order(
    store: SqlStore,
) -> None:
    star = await store.user("star")
    fans = [await store.user(f"fan{i}") for i in range(7)]
    outsider = await store.user("outsider")
    for fan in reversed(fans):
        await store.graph.follow(fan, star, NOW)
    await store.graph.follow(star, outsider, NOW)
    pages: list[list[int]] = []
    after = 0
    while batch := await store.graph.follower_batch(star, after, 3):
        pages.append(batch)
        after = batch[-1]
    assert pages == [sorted(fans)[0:3], sorted(fans)[3:6], sorted(fans)[6:]]


async def test_follower_lists_give_every_follower_of_many_followees_in_one_query(
    store: SqlStore,
) -> None:
    one, two, lonely = await store.user("one"), await store.user("two"), await store.user("l")
    fans = [await store.user(f"fan{i}") for i in range(5)]
    for fan in fans:
        await store.graph.follow(fan, one, NOW)
    await store.graph.follow(fans[0], two, NOW)
    await store.graph.follow(one, fans[1], NOW)  # the other way: not a follower of one
    lists = await store.graph.follower_lists([one, two, lonely])
    assert {author: sorted(followers) for author, followers in lists.items()} == {
        one: sorted(fans),
        two: [fans[0]],
    }
    assert await store.graph.follower_lists([]) == {}


async def test_followees_carry_the_pushed_or_pulled_status(store: SqlStore) -> None:
    reader, small, big = await store.user("reader"), await store.user("s"), await store.user("b")
    await store.graph.follow(reader, small, NOW)
    await store.graph.follow(reader, big, NOW)
    await store.accounts.set_pulled(big, True, NOW)
    followees = sorted(await store.graph.followees(reader), key=lambda f: f.user_id)
    assert followees == sorted(
        [Followee(small, False), Followee(big, True)], key=lambda f: f.user_id
    )


async def test_mutes_are_idempotent_and_listed(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    assert await store.graph.mute(alice, bob, NOW) is True
    assert await store.graph.mute(alice, bob, NOW) is False
    assert await store.graph.muted(alice) == {bob}
    assert await store.graph.unmute(alice, bob) is True
    assert await store.graph.muted(alice) == set()


async def test_everyone_following_everyone_at_once_neither_deadlocks_nor_miscounts(
    store: SqlStore,
) -> None:
    users = [await store.user(f"u{i}") for i in range(5)]
    pairs = [(a, b) for a in users for b in users if a != b]
    await asyncio.gather(*(store.graph.follow(a, b, NOW) for a, b in pairs))
    dropped = pairs[::3]
    await asyncio.gather(*(store.graph.unfollow(a, b) for a, b in dropped))
    kept = set(pairs) - set(dropped)
    profiles = await store.accounts.profiles(users)
    assert {p.id: (p.followers, p.following) for p in profiles.values()} == {
        user: (sum(b == user for _, b in kept), sum(a == user for a, _ in kept)) for user in users
    }


async def test_own_relations_reads_followees_blocks_either_way_and_mutes_together(
    store: SqlStore,
) -> None:
    reader, friend, foe, critic, bore = [
        await store.user(name) for name in ("reader", "friend", "foe", "critic", "bore")
    ]
    await store.graph.follow(reader, friend, NOW)
    await store.graph.block(reader, foe, NOW)
    await store.graph.block(critic, reader, NOW)
    await store.graph.mute(reader, bore, NOW)
    own = await store.graph.own_relations(reader)
    assert own.followees == await store.graph.followees(reader) == [Followee(friend, False)]
    assert own.blocked == await store.graph.blocked_either_way(reader) == {foe, critic}
    assert own.muted == await store.graph.muted(reader) == {bore}
