"""Where each account signed in from (ports.KnownClients), on SQLite and PostgreSQL:
a pair is known from its last sign-in for as long as the caller asks, a sign-in drops
the account's pairs past the window, and erasing the account forgets them all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from feedloom.adapters.sql.erasure import SqlAccountEraser
from feedloom.adapters.sql.known_clients import SqlKnownClients
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store

DAY = timedelta(days=1)


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


async def test_a_client_is_known_to_its_account_since_its_last_sign_in(store: SqlStore) -> None:
    clients = SqlKnownClients(store.engine)
    alice, bob = await store.user("alice"), await store.user("bob")
    await clients.remember(alice, "phone", NOW, NOW - 90 * DAY)
    assert await clients.knows(alice, "phone", NOW - DAY)
    assert not await clients.knows(alice, "laptop", NOW - DAY)
    assert not await clients.knows(bob, "phone", NOW - DAY)
    assert not await clients.knows(alice, "phone", NOW + DAY)  # not since a later time
    await clients.remember(alice, "phone", NOW + 2 * DAY, NOW - 88 * DAY)  # again: moved
    assert await clients.knows(alice, "phone", NOW + DAY)


async def test_a_sign_in_forgets_the_accounts_clients_past_the_window(store: SqlStore) -> None:
    clients = SqlKnownClients(store.engine)
    alice, bob = await store.user("alice"), await store.user("bob")
    await clients.remember(alice, "old", NOW, NOW - 90 * DAY)
    await clients.remember(bob, "old", NOW, NOW - 90 * DAY)
    later = NOW + 91 * DAY
    await clients.remember(alice, "new", later, later - 90 * DAY)
    assert not await clients.knows(alice, "old", NOW)  # the row is gone, whatever `since`
    assert await clients.knows(bob, "old", NOW)  # another account's rows stay
    assert await clients.knows(alice, "new", later)


async def test_erasing_the_account_forgets_its_clients(store: SqlStore) -> None:
    clients = SqlKnownClients(store.engine)
    alice = await store.user("alice")
    await clients.remember(alice, "phone", NOW, NOW - 90 * DAY)
    await SqlAccountEraser(store.engine).erase_account(alice, NOW)
    assert not await clients.knows(alice, "phone", NOW - DAY)
