"""Accounts contract on SQLite and PostgreSQL: unique usernames, sessions, profiles."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
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


async def test_a_token_names_its_user_until_revoked(store: SqlStore) -> None:
    alice = await store.user("alice")
    await store.accounts.create_token("token-hash", alice, NOW)
    assert await store.accounts.user_for_token("token-hash") == alice
    await store.accounts.revoke_token("token-hash")
    assert await store.accounts.user_for_token("token-hash") is None


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
    for digest, owner in [("a1", alice), ("a2", alice), ("b1", bob)]:
        await store.accounts.create_token(digest, owner, NOW)

    assert sorted(await store.accounts.revoke_tokens(alice)) == ["a1", "a2"]
    assert await store.accounts.user_for_token("a1") is None
    assert await store.accounts.user_for_token("b1") == bob
    assert await store.accounts.revoke_tokens(alice) == []


async def test_a_role_is_kept_and_cleared(store: SqlStore) -> None:
    await store.user("alice")
    alice = await store.accounts.account("alice")
    assert alice is not None and alice.role is None
    await store.accounts.set_role(alice.user_id, Role.MODERATOR)
    assert (await store.accounts.account("alice")) == replace(alice, role=Role.MODERATOR)
