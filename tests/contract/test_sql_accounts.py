"""Accounts contract on SQLite and PostgreSQL: unique usernames, sessions, profiles."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from feedloom.domain.errors import Conflict
from feedloom.domain.model import FeedOrder, Role, UserProfile
from feedloom.ports import Credentials
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def test_a_username_is_taken_once_even_by_concurrent_signups(store: SqlStore) -> None:
    ids = [store.ids.next_id() for _ in range(5)]
    results = await asyncio.gather(
        *(store.accounts.create_user(i, "alice", "Alice", "hash", NOW) for i in ids),
        return_exceptions=True,
    )
    assert sum(result is None for result in results) == 1
    assert all(isinstance(r, Conflict) for r in results if r is not None)
    winner = ids[results.index(None)]
    assert await store.accounts.credentials("alice") == Credentials(winner, "hash")
    assert await store.accounts.credentials("nobody") is None


async def owner(store: SqlStore, digest: str) -> int | None:
    record = await store.accounts.session_for_token(digest)
    return record.user_id if record is not None else None


async def test_a_token_names_its_user_until_revoked(store: SqlStore) -> None:
    alice = await store.user("alice")
    await store.accounts.create_token("token-hash", alice, NOW)
    assert await owner(store, "token-hash") == alice
    await store.accounts.revoke_token("token-hash")
    assert await owner(store, "token-hash") is None


async def test_a_session_records_its_last_use_and_lists_newest_first(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    older, newer = "a" * 64, "b" * 64
    await store.accounts.create_token(older, alice, NOW - timedelta(hours=2))
    await store.accounts.create_token(newer, alice, NOW - timedelta(hours=1))
    await store.accounts.create_token("c" * 64, bob, NOW)
    await store.accounts.touch_token(older, NOW)
    listed = await store.accounts.sessions_of(alice)
    assert [s.token_hash for s in listed] == [newer, older]
    assert listed[1].last_used == NOW and listed[0].last_used == NOW - timedelta(hours=1)
    assert listed[1].session_id == "a" * 16


async def test_sessions_are_revoked_one_by_id_or_all_but_one(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    for digest, user in (("a" * 64, alice), ("b" * 64, alice), ("c" * 64, alice), ("d" * 64, bob)):
        await store.accounts.create_token(digest, user, NOW)
    assert await store.accounts.revoke_session(bob, "a" * 16) is None  # not bob's
    assert await store.accounts.revoke_session(alice, "a%") is None  # not an ID
    assert await store.accounts.revoke_session(alice, "a" * 16) == "a" * 64
    assert await store.accounts.revoke_other_tokens(alice, "b" * 64) == ["c" * 64]
    assert [s.token_hash for s in await store.accounts.sessions_of(alice)] == ["b" * 64]
    assert await owner(store, "d" * 64) == bob


async def test_profiles_and_settings_read_back_as_written(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    await store.accounts.set_pulled(bob, True, NOW)
    await store.accounts.set_feed_order(alice, FeedOrder.RANKED)
    assert await store.accounts.profiles([alice, bob, alice]) == {
        alice: UserProfile(alice, "alice", "Alice", None),
        bob: UserProfile(bob, "bob", "Bob", None, pulled=True),
    }
    assert await store.accounts.feed_order(alice) == FeedOrder.RANKED
    await store.accounts.set_feed_order(alice, None)
    assert await store.accounts.feed_order(alice) is None
    assert await store.accounts.profiles([]) == {}


async def test_a_suspended_or_deleted_account_cannot_sign_in_and_shows_as_suspended(
    store: SqlStore,
) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    await store.accounts.set_suspended(alice, NOW)
    await store.accounts.set_deleted(bob, NOW)

    assert await store.accounts.credentials("alice") is None
    assert await store.accounts.credentials("bob") is None
    profiles = await store.accounts.profiles([alice, bob])
    assert profiles[alice].suspended and profiles[bob].suspended
    await store.accounts.set_suspended(alice, None)
    assert await store.accounts.credentials("alice") is not None
    assert await store.accounts.user_ids(0, 10) == [alice]  # the deleted one is not listed


async def test_revoking_an_accounts_tokens_returns_exactly_their_digests(store: SqlStore) -> None:
    alice, bob = await store.user("alice"), await store.user("bob")
    for digest, holder in [("a1", alice), ("a2", alice), ("b1", bob)]:
        await store.accounts.create_token(digest, holder, NOW)

    assert sorted(await store.accounts.revoke_tokens(alice)) == ["a1", "a2"]
    assert await owner(store, "a1") is None
    assert await owner(store, "b1") == bob
    assert await store.accounts.revoke_tokens(alice) == []


async def test_a_role_is_kept_and_cleared(store: SqlStore) -> None:
    await store.user("alice")
    alice = await store.accounts.account("alice")
    assert alice is not None and alice.role is None
    await store.accounts.set_role(alice.user_id, Role.MODERATOR)
    assert (await store.accounts.account("alice")) == replace(alice, role=Role.MODERATOR)
