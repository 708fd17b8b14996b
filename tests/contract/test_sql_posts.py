"""Posts contract on SQLite and PostgreSQL: idempotent creates, tombstones with their
outbox event, and the keyset queries behind author timelines and the archive."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from feedloom.domain.model import Event, PostDeleted, PostPublished
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def relayed(store: SqlStore) -> list[Event]:
    """The outbox's events in order, without their outbox `seq`."""
    events: list[Event] = []
    while batch := await store.outbox.claim_unsent(100, NOW):
        events.extend(replace(event, seq=0) for event in batch)
    return events


async def test_a_repeated_idempotency_key_returns_the_first_response_and_writes_nothing(
    store: SqlStore,
) -> None:
    alice = await store.user("alice")
    first, retry = store.new_post(alice), store.new_post(alice)
    stored = await store.posts.create_post(first, "key-1", "hash-a", NOW)
    again = await store.posts.create_post(retry, "key-1", "hash-a", NOW)
    assert (stored.result_id, again.result_id, again.request_hash) == (first.id, first.id, "hash-a")
    assert await store.posts.posts([first.id, retry.id]) == {first.id: first}
    assert await relayed(store) == [PostPublished(first.id, alice)]


async def test_concurrent_creates_with_one_key_store_exactly_one_post(store: SqlStore) -> None:
    alice = await store.user("alice")
    attempts = [store.new_post(alice) for _ in range(8)]
    responses = await asyncio.gather(
        *(store.posts.create_post(post, "same-key", "hash", NOW) for post in attempts)
    )
    winners = {response.result_id for response in responses}
    assert len(winners) == 1
    stored = await store.posts.posts([post.id for post in attempts])
    assert list(stored) == list(winners)
    assert await relayed(store) == [PostPublished(winners.pop(), alice)]


async def test_the_same_key_of_another_user_is_a_different_request(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    a, b = store.new_post(alice), store.new_post(bob)
    assert (await store.posts.create_post(a, "k", "h", NOW)).result_id == a.id
    assert (await store.posts.create_post(b, "k", "h", NOW)).result_id == b.id
    assert await store.posts.stored_response(bob, "k") is not None
    assert await store.posts.stored_response(bob, "other") is None


async def test_a_tombstone_hides_the_post_once_and_queues_one_delete_event(
    store: SqlStore,
) -> None:
    alice = await store.user("alice")
    post_id = await store.post(alice)
    assert await store.posts.tombstone(post_id, NOW) is True
    assert await store.posts.tombstone(post_id, NOW) is False
    assert (await store.posts.posts([post_id]))[post_id].deleted
    assert await store.posts.author_post_ids([alice], None, 10) == {alice: []}
    assert await relayed(store) == [
        PostPublished(post_id, alice),
        PostDeleted(post_id, alice),
    ]


async def test_live_posts_leave_out_deleted_and_unknown_posts(store: SqlStore) -> None:
    alice = await store.user("alice")
    kept, deleted = await store.post(alice), await store.post(alice)
    await store.posts.tombstone(deleted, NOW)
    unknown = store.new_post(alice).id
    assert await store.posts.live_posts([kept, deleted, unknown, kept]) == {kept: None}
    assert await store.posts.live_posts([]) == {}


async def test_author_post_ids_are_newest_first_per_author_below_the_cursor(
    store: SqlStore,
) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    bobs = [await store.post(bob) for _ in range(2)]
    alices = [await store.post(alice) for _ in range(5)]
    found = await store.posts.author_post_ids([alice, bob, carol], alices[3], 2)
    assert found == {alice: [alices[2], alices[1]], bob: bobs[::-1], carol: []}


async def test_post_ids_by_authors_pages_between_before_and_after(store: SqlStore) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    ids = [await store.post(author) for author in (alice, bob, carol) * 4]
    wanted = [i for i, author in zip(ids, (alice, bob, carol) * 4, strict=True) if author != carol]
    newest_first = wanted[::-1]
    assert await store.posts.post_ids_by_authors([alice, bob], None, None, 3) == newest_first[:3]
    page = await store.posts.post_ids_by_authors([alice, bob], newest_first[2], None, 3)
    assert page == newest_first[3:6]
    window = await store.posts.post_ids_by_authors(
        [alice, bob], newest_first[1], newest_first[5], 10
    )
    assert window == newest_first[2:5]
    assert await store.posts.post_ids_by_authors([], None, None, 3) == []
