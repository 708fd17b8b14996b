"""Accounts contract on SQLite and PostgreSQL: unique usernames, sessions, profiles."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.domain.errors import Conflict
from feedloom.domain.model import FeedOrder, UserProfile
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
    await store.accounts.set_pulled(bob, True)
    await store.accounts.set_feed_order(alice, FeedOrder.RANKED)
    assert await store.accounts.profiles([alice, bob, alice]) == {
        alice: UserProfile(alice, "alice", "Alice", None),
        bob: UserProfile(bob, "bob", "Bob", None, pulled=True),
    }
    assert await store.accounts.feed_order(alice) == FeedOrder.RANKED
    await store.accounts.set_feed_order(alice, None)
    assert await store.accounts.feed_order(alice) is None
    assert await store.accounts.profiles([]) == {}
