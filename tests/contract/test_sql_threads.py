"""Threads contract on SQLite and PostgreSQL: a reply is stored under a live parent
only, in its thread's depth-first order; direct replies newest first; the reply
rule's relations for a batch in one query; migration 0013 turns comments into replies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from feedloom.adapters.sql.engagement import SqlEngagement
from feedloom.adapters.sql.posts import SqlPosts
from feedloom.adapters.sql.threads import SqlThreads
from feedloom.domain.errors import Conflict, NotFound
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Counts, PostPublished, Visibility
from feedloom.domain.notifications import Notified
from feedloom.domain.threads import MAX_DEPTH, path_of
from tests.contract.sql_store import (
    NOW,
    SQL_DIALECTS,
    SqlStore,
    alembic_config,
    engine_at_revision,
    open_sql_store,
)


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def test_a_reply_is_stored_with_its_parents_author_and_an_outbox_event(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    root = await store.post(alice)
    reply = await store.reply(bob, root)
    stored = (await store.posts.posts([reply]))[reply]
    assert (stored.in_reply_to, stored.reply_to_author) == (root, alice)
    assert await store.posts.live_posts([root, reply]) == {root: None, reply: alice}
    events = await store.outbox.claim_unsent(10, NOW)
    published = [e.post_id for e in events if isinstance(e, PostPublished)]
    told = [(e.recipient_id, e.author_id, e.post_id) for e in events if isinstance(e, Notified)]
    assert (published, told) == ([root, reply], [(alice, bob, reply)])  # alice is told


async def test_a_reply_to_a_deleted_or_unknown_post_writes_nothing(store: SqlStore) -> None:
    alice = await store.user("alice")
    root = await store.post(alice)
    await store.posts.tombstone(root, NOW)
    await store.outbox.claim_unsent(10, NOW)
    for parent in (root, store.ids.next_id()):
        post = replace(store.new_post(alice), in_reply_to=parent)
        with pytest.raises(NotFound):
            await store.posts.create_post(post, "key", "hash", NOW)
        assert await store.posts.posts([post.id]) == {}
        assert await store.posts.stored_response(alice, "key") is None
    assert await store.outbox.claim_unsent(10, NOW) == []


async def test_a_thread_deeper_than_the_limit_is_refused(store: SqlStore) -> None:
    alice = await store.user("alice")
    parent = await store.post(alice)
    for _ in range(MAX_DEPTH - 1):
        parent = await store.reply(alice, parent)
    with pytest.raises(Conflict):
        await store.reply(alice, parent)


async def test_descendants_come_depth_first_with_replies_oldest_first_and_page(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    root = await store.post(alice)
    a = await store.reply(bob, root)
    b = await store.reply(alice, root)
    a1 = await store.reply(alice, a)
    a1x = await store.reply(bob, a1)
    b1 = await store.reply(bob, b)
    gone = await store.reply(bob, a)
    await store.posts.tombstone(gone, NOW)
    path = await store.threads.thread_path(root)
    assert path == path_of(root, None)
    every = await store.threads.descendants(path, None, 10)
    assert [post_id for post_id, _ in every] == [a, a1, a1x, b, b1]
    first = await store.threads.descendants(path, None, 2)
    rest = await store.threads.descendants(path, first[-1][1], 10)
    assert first + rest == every
    under_a = await store.threads.thread_path(a)
    assert under_a is not None
    assert [i for i, _ in await store.threads.descendants(under_a, None, 10)] == [a1, a1x]
    assert [i for i, _ in await store.threads.descendants(path, None, 10, {bob})] == [a1, b]
    assert await store.threads.thread_path(store.ids.next_id()) is None


async def test_direct_replies_come_newest_first_below_the_cursor(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    root = await store.post(alice)
    made = [await store.reply(bob if i % 2 else alice, root) for i in range(5)]
    await store.reply(alice, made[0])  # not a direct reply
    newest_first = made[::-1]
    assert await store.threads.reply_ids(root, None, 2) == newest_first[:2]
    assert await store.threads.reply_ids(root, newest_first[1], 2) == newest_first[2:4]
    assert await store.threads.reply_ids(root, None, 10, {bob}) == [made[4], made[2], made[0]]


async def test_followers_also_following_are_read_for_a_batch_in_one_call(
    store: SqlStore,
) -> None:
    author, other, third = [await store.user(n) for n in ("author", "other", "third")]
    fans = [await store.user(f"fan{i}") for i in range(4)]
    for fan in fans:
        await store.graph.follow(fan, author, NOW)
    await store.graph.follow(fans[0], other, NOW)
    await store.graph.follow(fans[2], other, NOW)
    await store.graph.follow(fans[3], third, NOW)
    found = await store.graph.followers_also_following([(author, other), (author, third)])
    assert found == {(author, other): {fans[0], fans[2]}, (author, third): {fans[3]}}
    assert await store.graph.followers_also_following([]) == {}


# -- migration 0013 on old data ------------------------------------------------------


@pytest.mark.parametrize("dialect", SQL_DIALECTS)
async def test_the_migration_turns_comments_into_replies_with_ids_and_counts_kept(
    dialect: str, tmp_path: Path
) -> None:
    ids = IdGenerator()
    alice, bob, public, private, c1, c2, c3 = (ids.next_id() for _ in range(7))
    async with engine_at_revision("0012", dialect, tmp_path) as engine:
        async with engine.begin() as conn:
            old_rows = (
                (
                    "INSERT INTO users (id, username, display_name, password_hash, created_at)"
                    " VALUES (:id, :name, :name, 'h', :at)",
                    [{"id": alice, "name": "alice"}, {"id": bob, "name": "bob"}],
                ),
                (
                    "INSERT INTO posts (id, author_id, text, media, visibility)"
                    " VALUES (:id, :author, 'p', '[]', :visibility)",
                    [
                        {"id": public, "author": alice, "visibility": "public"},
                        {"id": private, "author": alice, "visibility": "followers"},
                    ],
                ),
                (
                    "INSERT INTO comments (id, post_id, author_id, text, created_at)"
                    " VALUES (:id, :post, :author, 'nice', :at)",
                    [
                        {"id": c, "post": p, "author": bob}
                        for c, p in ((c1, public), (c2, public), (c3, private))
                    ],
                ),
            )
            for statement, rows in old_rows:
                for row in rows:
                    await conn.execute(text(statement), {**row, "at": NOW})
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
        posts, threads = SqlPosts(engine), SqlThreads(engine)
        replies = await posts.posts([c1, c2, c3])
        assert {
            r.id: (r.in_reply_to, r.reply_to_author, r.author_id) for r in replies.values()
        } == {
            c1: (public, alice, bob),
            c2: (public, alice, bob),
            c3: (private, alice, bob),
        }
        assert replies[c3].visibility is Visibility.FOLLOWERS
        assert await SqlEngagement(engine).true_counts([public, private]) == {
            public: Counts(comments=2),
            private: Counts(comments=1),
        }
        assert await threads.reply_ids(public, None, 10) == [c2, c1]
        path = await threads.thread_path(public)
        assert path is not None
        assert [i for i, _ in await threads.descendants(path, None, 10)] == [c1, c2]
        assert await threads.thread_path(c1) == path + f"{c1:016x}"
