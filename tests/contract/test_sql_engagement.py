"""Engagement contract on SQLite and PostgreSQL: one like per user and post, and true
counts from the like rows and the live replies (a comment is a reply)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.adapters.sql.moderation import SqlModeration
from feedloom.domain.model import Counts
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def test_a_user_likes_a_post_at_most_once_even_concurrently(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    post_id = await store.post(alice)
    created = await asyncio.gather(*(store.engagement.like(post_id, bob, NOW) for _ in range(6)))
    assert created.count(True) == 1
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(likes=1)}
    assert await store.engagement.liked_among(bob, [post_id]) == {post_id}
    assert await store.engagement.unlike(post_id, bob) is True
    assert await store.engagement.unlike(post_id, bob) is False
    assert await store.engagement.liked_among(bob, [post_id]) == set()


async def test_true_counts_count_likes_and_comments_per_post(store: SqlStore) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    liked, quiet = await store.post(alice), await store.post(alice)
    for user in (alice, bob, carol):
        await store.engagement.like(liked, user, NOW)
    await store.reply(bob, liked, "nice")
    assert await store.engagement.true_counts([liked, quiet]) == {
        liked: Counts(likes=3, comments=1),
        quiet: Counts(),
    }
    assert await store.engagement.true_counts([]) == {}


async def test_hidden_authors_replies_are_counted_apart_and_deleted_ones_not_at_all(
    store: SqlStore,
) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    post_id, other_post = await store.post(alice), await store.post(alice)
    await store.reply(alice, post_id)
    for _ in range(2):
        await store.reply(bob, post_id)
    gone = await store.reply(bob, post_id)
    await store.posts.tombstone(gone, NOW)
    await store.reply(carol, other_post)
    assert await store.engagement.comments_by([post_id, other_post], {bob, carol}) == {
        post_id: 2,
        other_post: 1,
    }
    assert await store.engagement.comments_by([post_id], {alice}) == {post_id: 1}
    assert await store.engagement.comments_by([post_id], set()) == {}
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(comments=3)}


async def test_flagged_counts_are_the_likes_and_comments_of_flagged_accounts_only(
    store: SqlStore,
) -> None:
    author, honest, ring = await store.user("author"), await store.user("h"), await store.user("r")
    post_id = await store.post(author)
    await store.engagement.like(post_id, honest, NOW)
    await store.engagement.like(post_id, ring, NOW)
    assert await store.engagement.flagged_counts([post_id]) == {}
    await SqlModeration(store.engine).set_flagged(ring, NOW)
    assert await store.engagement.flagged_counts([post_id]) == {post_id: Counts(likes=1)}
    await SqlModeration(store.engine).set_flagged(ring, None)
    assert await store.engagement.flagged_counts([post_id]) == {}


async def test_a_suspended_or_deleted_accounts_replies_leave_every_count(
    store: SqlStore,
) -> None:
    author, kept_by, suspended, deleted = [
        await store.user(name) for name in ("author", "kept", "susp", "gone")
    ]
    post_id = await store.post(author)
    await store.engagement.like(post_id, suspended, NOW)
    await store.reply(kept_by, post_id, "kept")
    for by in (suspended, deleted):
        await store.reply(by, post_id, "soon hidden")
    await SqlModeration(store.engine).set_flagged(suspended, NOW)
    await store.accounts.set_suspended(suspended, NOW)
    await store.accounts.set_deleted(deleted, NOW)

    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(1, 1)}
    assert await store.engagement.comments_by([post_id], {kept_by, suspended, deleted}) == {
        post_id: 1
    }
    assert await store.engagement.flagged_counts([post_id]) == {post_id: Counts(likes=1)}
    await store.accounts.set_suspended(suspended, None)
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(1, 2)}


async def test_the_posts_an_account_commented_on_come_once_each_in_keyset_pages(
    store: SqlStore,
) -> None:
    author, bob = await store.user("author"), await store.user("bob")
    posts = [await store.post(author) for _ in range(3)]
    for post_id in [*posts, posts[0]]:
        await store.reply(bob, post_id, "hi")
    await store.reply(author, posts[1], "mine")

    assert await store.engagement.commented_post_ids(bob, 0, 2) == posts[:2]
    assert await store.engagement.commented_post_ids(bob, posts[1], 2) == posts[2:]
    assert await store.engagement.commented_post_ids(author, 0, 10) == [posts[1]]


async def test_liked_since_gives_each_users_newest_likes_above_a_post_in_one_query(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    carol, dan = await store.user("carol"), await store.user("dan")
    posts = [await store.post(alice) for _ in range(5)]
    for post_id in posts:
        await store.engagement.like(post_id, bob, NOW)
    await store.engagement.like(posts[0], carol, NOW)
    await store.engagement.like(posts[3], carol, NOW)
    found = await store.engagement.liked_since([bob, carol, dan], posts[1], 3)
    assert found == {bob: posts[4:1:-1], carol: [posts[3]], dan: []}
    assert await store.engagement.liked_since([], posts[0], 3) == {}
