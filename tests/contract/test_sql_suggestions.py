"""SuggestionSource contract on SQLite and PostgreSQL: friends of friends weighted by how
many of your followees follow them, then popular accounts active lately; every exclusion
holds; a dismissal is durable and idempotent; and the plans use indexes, never a scan of
users or follows (what keeps a request bounded at a million users)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from feedloom.adapters.sql.schema import users
from feedloom.adapters.sql.suggestions import SqlSuggestions
from feedloom.domain.people import Suggested
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store
from tests.contract.test_sql_people import plan

LATELY = NOW - timedelta(days=7)


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def source(store: SqlStore) -> SqlSuggestions:
    return SqlSuggestions(store.engine)


async def test_friends_of_friends_come_first_weighted_by_how_many_followees_follow_them(
    store: SqlStore, source: SqlSuggestions
) -> None:
    me, a, b, liked, loved = [await store.user(n) for n in ("me", "a", "b", "liked", "loved")]
    for followee in (a, b):
        await store.graph.follow(me, followee, NOW)
        await store.graph.follow(followee, loved, NOW)
    await store.graph.follow(a, liked, NOW)
    found = await source.suggestions(me, LATELY, 2)
    assert found == [Suggested(loved, 2), Suggested(liked, 1)]


async def test_popular_accounts_active_lately_fill_the_rest(
    store: SqlStore, source: SqlSuggestions
) -> None:
    me, star, idle, fan = [await store.user(n) for n in ("me", "star", "idle", "fan")]
    for followee in (star, idle):
        await store.graph.follow(fan, followee, NOW)
    async with store.engine.begin() as conn:
        await conn.execute(
            users.update().where(users.c.id == idle).values(last_active_at=NOW - timedelta(days=9))
        )
    # Most followed first; an idle account is left out however followed.
    assert await source.suggestions(me, LATELY, 5) == [Suggested(star, 0), Suggested(fan, 0)]


async def test_nobody_followed_blocked_either_way_muted_dismissed_suspended_or_yourself(
    store: SqlStore, source: SqlSuggestions
) -> None:
    me, friend = await store.user("me"), await store.user("friend")
    names = ("followed", "blocked", "blocker", "muted", "dismissed", "suspended", "kept")
    people = {name: await store.user(name) for name in names}
    await store.graph.follow(me, friend, NOW)
    await store.graph.follow(friend, me, NOW)
    for other in people.values():
        await store.graph.follow(friend, other, NOW)
    await store.graph.follow(me, people["followed"], NOW)
    await store.graph.block(me, people["blocked"], NOW)
    await store.graph.block(people["blocker"], me, NOW)
    await store.graph.mute(me, people["muted"], NOW)
    assert await source.dismiss(me, people["dismissed"], NOW) is True
    assert await source.dismiss(me, people["dismissed"], NOW) is False  # idempotent
    await store.accounts.set_suspended(people["suspended"], NOW)
    found = await source.suggestions(me, LATELY, 20)
    assert [s.user_id for s in found] == [people["kept"]], found


async def test_both_queries_use_indexes_and_scan_no_table(
    store: SqlStore, source: SqlSuggestions
) -> None:
    for query in (source.friends_of_friends_query(7, 10), source.popular_query(7, LATELY, 10)):
        shown = await plan(store.engine, query)
        for table in ("users", "follows", "blocks", "mutes", "suggestion_dismissals"):
            assert f"SCAN {table}\n" not in f"{shown}\n", shown
            assert f"Seq Scan on {table}" not in shown, shown
    popular = await plan(store.engine, source.popular_query(7, LATELY, 10))
    assert "ix_users_followers_id" in popular, popular
