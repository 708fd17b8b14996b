"""Engagement contract on SQLite and PostgreSQL: one like per user and post, comments
made retry-safe by their idempotency key, and true counts from those rows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.adapters.sql.moderation import SqlModeration
from feedloom.domain.model import Comment, Counts
from feedloom.ports import StoredResponse
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


def comment(store: SqlStore, post_id: int, author_id: int, text: str) -> Comment:
    return Comment(store.ids.next_id(), post_id, author_id, text, NOW)


async def added(store: SqlStore, new: Comment) -> Comment:
    """Stored without an Idempotency-Key."""
    await store.engagement.add_comment(new, None, "request-hash", NOW)
    return new


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
    await store.engagement.add_comment(comment(store, liked, bob, "nice"), None, "h", NOW)
    assert await store.engagement.true_counts([liked, quiet]) == {
        liked: Counts(likes=3, comments=1),
        quiet: Counts(),
    }
    assert await store.engagement.true_counts([]) == {}


async def test_a_retried_comment_with_its_key_stores_nothing_and_returns_the_first_record(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    post_id = await store.post(alice)
    first, retry, other = (
        comment(store, post_id, bob, "one"),
        comment(store, post_id, bob, "one"),
        comment(store, post_id, bob, "two"),
    )
    stored = await store.engagement.add_comment(first, "key", "hash-1", NOW)
    again = await store.engagement.add_comment(retry, "key", "hash-1", NOW)
    await store.engagement.add_comment(other, "key-2", "hash-2", NOW)
    assert stored == again == StoredResponse("hash-1", first.id, "comment")
    assert await store.engagement.stored_response(bob, "key") == stored
    assert await store.engagement.stored_response(alice, "key") is None  # keys are per author
    assert await store.engagement.comment(post_id, first.id) == first
    assert await store.engagement.comments(post_id, None, 10) == [other, first]
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(comments=2)}


async def test_concurrent_retries_of_one_comment_store_it_once(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    post_id = await store.post(alice)
    tries = [comment(store, post_id, bob, "one") for _ in range(4)]
    stored = await asyncio.gather(
        *(store.engagement.add_comment(c, "key", "h", NOW) for c in tries)
    )
    assert len({s.result_id for s in stored}) == 1
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(comments=1)}


async def test_comments_page_newest_first_below_the_cursor(store: SqlStore) -> None:
    alice = await store.user("alice")
    post_id = await store.post(alice)
    made = [comment(store, post_id, alice, f"c{i}") for i in range(5)]
    for made_one in made:
        await store.engagement.add_comment(made_one, None, "h", NOW)
    newest_first = made[::-1]
    assert await store.engagement.comments(post_id, None, 2) == newest_first[:2]
    assert await store.engagement.comments(post_id, newest_first[1].id, 2) == newest_first[2:4]


async def test_only_its_author_deletes_a_comment_and_once(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    post_id = await store.post(alice)
    kept = await added(store, comment(store, post_id, alice, "keep"))
    gone = await added(store, comment(store, post_id, bob, "oops"))
    assert await store.engagement.comment(post_id, gone.id) == gone
    assert await store.engagement.delete_comment(post_id, gone.id, alice) is False
    assert await store.engagement.delete_comment(post_id, gone.id, bob) is True
    assert await store.engagement.delete_comment(post_id, gone.id, bob) is False
    assert await store.engagement.comment(post_id, gone.id) is None
    assert await store.engagement.comments(post_id, None, 10) == [kept]


async def test_hidden_authors_are_left_out_of_a_page_and_counted_apart(store: SqlStore) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    post_id, other_post = await store.post(alice), await store.post(alice)
    kept = await added(store, comment(store, post_id, alice, "kept"))
    for text in ("a", "b"):
        await added(store, comment(store, post_id, bob, text))
    await added(store, comment(store, other_post, carol, "c"))
    assert await store.engagement.comments(post_id, None, 10, {bob, carol}) == [kept]
    assert await store.engagement.comments_by([post_id, other_post], {bob, carol}) == {
        post_id: 2,
        other_post: 1,
    }
    assert await store.engagement.comments_by([post_id], {alice}) == {post_id: 1}
    assert await store.engagement.comments_by([post_id], set()) == {}


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


async def test_a_suspended_or_deleted_accounts_comments_leave_every_page_and_count(
    store: SqlStore,
) -> None:
    author, kept_by, suspended, deleted = [
        await store.user(name) for name in ("author", "kept", "susp", "gone")
    ]
    post_id = await store.post(author)
    await store.engagement.like(post_id, suspended, NOW)
    kept = await added(store, comment(store, post_id, kept_by, "kept"))
    for by in (suspended, deleted):
        await added(store, comment(store, post_id, by, "soon hidden"))
    await SqlModeration(store.engine).set_flagged(suspended, NOW)
    await store.accounts.set_suspended(suspended, NOW)
    await store.accounts.set_deleted(deleted, NOW)

    assert await store.engagement.comments(post_id, None, 10) == [kept]
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(1, 1)}
    assert await store.engagement.comments_by([post_id], {kept_by, suspended, deleted}) == {
        post_id: 1
    }
    assert await store.engagement.flagged_counts([post_id]) == {post_id: Counts(likes=1)}
    await store.accounts.set_suspended(suspended, None)
    assert len(await store.engagement.comments(post_id, None, 10)) == 2
    assert await store.engagement.true_counts([post_id]) == {post_id: Counts(1, 2)}


async def test_the_posts_an_account_commented_on_come_once_each_in_keyset_pages(
    store: SqlStore,
) -> None:
    author, bob = await store.user("author"), await store.user("bob")
    posts = [await store.post(author) for _ in range(3)]
    for post_id in [*posts, posts[0]]:
        await added(store, comment(store, post_id, bob, "hi"))
    await added(store, comment(store, posts[1], author, "mine"))

    assert await store.engagement.commented_post_ids(bob, 0, 2) == posts[:2]
    assert await store.engagement.commented_post_ids(bob, posts[1], 2) == posts[2:]
    assert await store.engagement.commented_post_ids(author, 0, 10) == [posts[1]]
