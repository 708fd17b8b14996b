"""PeopleDirectory contract on SQLite and PostgreSQL: lookups ignore case, search by
the words of names ranked by followers, follow lists, a post's likers and reposters
newest first; every query reads an index (the plans are asserted here), and migration
0005 renames old case-duplicates."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.people import SqlPeople
from feedloom.adapters.sql.reposts import SqlReposts
from feedloom.adapters.sql.schema import follows, likes
from feedloom.adapters.sql.search import people_query
from feedloom.domain.people import FollowKey, RankKey, RelationFlags, RepostKey
from feedloom.domain.search import search_words
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


@pytest.fixture
def people(store: SqlStore) -> SqlPeople:
    return SqlPeople(store.engine)


async def test_a_username_is_found_whatever_its_case(store: SqlStore, people: SqlPeople) -> None:
    kim = await store.user("Kim")
    assert await people.user_id_by_username("kIM") == kim
    assert await people.user_id_by_username("kimberly") is None


async def test_search_ranks_by_followers_then_id_and_pages_by_key(
    store: SqlStore, people: SqlPeople
) -> None:
    quiet, loud, other = [await store.user(name) for name in ("ann_q", "ann_l", "bob")]
    fans = [await store.user(f"fan_{n}") for n in range(2)]
    for fan in fans:
        await store.graph.follow(fan, loud, NOW)
    prefix = search_words("ANN")
    first = await people.search(prefix, set(), None, 1)
    assert first == [RankKey(2, loud)]
    assert await people.search(prefix, set(), first[-1], 5) == [RankKey(0, quiet)]
    assert await people.search(prefix, {quiet}, None, 5) == [RankKey(2, loud)]
    assert other not in [k.user_id for k in await people.search(prefix, set(), None, 5)]


async def found(people: SqlPeople, query: str) -> list[int]:
    return [key.user_id for key in await people.search(search_words(query), set(), None, 5)]


async def test_search_matches_a_prefix_of_any_word_of_a_name_or_username(
    store: SqlStore, people: SqlPeople
) -> None:
    alice, zoe, rina = [store.ids.next_id() for _ in range(3)]
    await store.accounts.create_user(alice, "alice_w", "Alice Wonder", "hash", NOW)
    await store.accounts.create_user(zoe, "xyz", "Zoë Ann", "hash", NOW)
    await store.accounts.create_user(rina, "rina", "রিনা দাশগুপ্ত", "hash", NOW)
    assert await found(people, "Wonder") == [alice]
    assert await found(people, "wond ali") == [alice]
    assert await found(people, "w") == [alice]  # the username's second word
    assert await found(people, "alice zoë") == []
    assert await found(people, "zoe") == [zoe]  # accents ignored
    assert await found(people, "ZOË") == [zoe]
    assert await found(people, "দাশ") == [rina]


async def test_a_renamed_account_is_found_by_its_new_name_only(
    store: SqlStore, people: SqlPeople
) -> None:
    user_id = await store.user("kim")
    await store.accounts.modify(user_id, "Kimberly Lantern", None)
    assert await found(people, "lantern") == [user_id]
    assert await found(people, "Kim") == [user_id]  # the username stays
    await store.accounts.modify(user_id, "Somebody", None)
    assert await found(people, "lantern") == []


async def test_follow_lists_are_newest_first_and_keyset_paged(
    store: SqlStore, people: SqlPeople
) -> None:
    star = await store.user("star")
    fans = [await store.user(f"fan_{n}") for n in range(3)]
    for n, fan in enumerate(fans):
        await store.graph.follow(fan, star, NOW + timedelta(seconds=n))
    page = await people.followers_page(star, None, 2)
    assert [k.user_id for k in page] == [fans[2], fans[1]]
    assert page[0].at == NOW + timedelta(seconds=2)
    rest = await people.followers_page(star, page[-1], 2)
    assert [k.user_id for k in rest] == [fans[0]]
    assert [k.user_id for k in await people.following_page(fans[0], None, 5)] == [star]
    assert await people.followers_among(star, [fans[0], star]) == {fans[0]}


async def test_blocks_and_mutes_are_listed_newest_first_and_keyset_paged(
    store: SqlStore, people: SqlPeople
) -> None:
    me = await store.user("me")
    others = [await store.user(f"other_{n}") for n in range(3)]
    for n, other in enumerate(others):
        await store.graph.block(me, other, NOW + timedelta(seconds=n))
        await store.graph.mute(me, other, NOW + timedelta(seconds=n))
    for page_of in (people.blocking_page, people.muting_page):
        first = await page_of(me, None, 2)
        assert [k.user_id for k in first] == [others[2], others[1]]
        assert [k.user_id for k in await page_of(me, first[-1], 2)] == [others[0]]
        assert await page_of(others[0], None, 2) == []


async def test_the_relation_between_two_people_is_read_both_ways(
    store: SqlStore, people: SqlPeople
) -> None:
    ann, bo, cy = [await store.user(name) for name in ("ann", "bo", "cy")]
    await store.graph.follow(ann, bo, NOW)
    await store.graph.mute(ann, bo, NOW)
    await store.graph.follow(cy, ann, NOW)
    await store.graph.block(cy, bo, NOW)
    assert await people.relation(ann, bo) == RelationFlags(following=True, muting=True)
    assert await people.relation(bo, ann) == RelationFlags(followed_by=True)
    assert await people.relation(ann, cy) == RelationFlags(followed_by=True)
    assert await people.relation(bo, cy) == RelationFlags(blocked_by=True)
    assert await people.relation(cy, bo) == RelationFlags(blocking=True)


async def test_likers_page_newest_like_first_by_key(store: SqlStore, people: SqlPeople) -> None:
    author = await store.user("author")
    post_id, other = await store.post(author), await store.post(author)
    fans = [await store.user(f"fan_{n}") for n in range(3)]
    for n, fan in enumerate(fans):
        await store.engagement.like(post_id, fan, NOW + timedelta(seconds=n))
    await store.engagement.like(other, fans[0], NOW)
    first = await people.likers_page(post_id, None, 2)
    assert first == [
        FollowKey(NOW + timedelta(seconds=2), fans[2]),
        FollowKey(NOW + timedelta(seconds=1), fans[1]),
    ]
    assert await people.likers_page(post_id, first[-1], 5) == [FollowKey(NOW, fans[0])]
    await store.engagement.unlike(post_id, fans[2])
    assert [key.user_id for key in await people.likers_page(post_id, None, 5)] == fans[1::-1]


async def test_reposters_page_live_reposts_newest_first_by_id(
    store: SqlStore, people: SqlPeople
) -> None:
    author = await store.user("author")
    post_id, other = await store.post(author), await store.post(author)
    fans = [await store.user(f"fan_{n}") for n in range(3)]
    reposts = SqlReposts(store.engine)
    repost_ids = []
    for fan in fans:
        repost = replace(store.new_post(fan, ""), repost_of=post_id)
        repost_ids.append(await reposts.repost(repost, NOW))
    await reposts.repost(replace(store.new_post(fans[0], ""), repost_of=other), NOW)
    first = await people.reposters_page(post_id, None, 2)
    assert first == [RepostKey(repost_ids[2], fans[2]), RepostKey(repost_ids[1], fans[1])]
    assert await people.reposters_page(post_id, first[-1].repost_id, 5) == [
        RepostKey(repost_ids[0], fans[0])
    ]
    await reposts.unrepost(fans[1], post_id, NOW)
    assert [key.user_id for key in await people.reposters_page(post_id, None, 5)] == [
        fans[2],
        fans[0],
    ]


# -- the plans: what keeps these fast at a million users ------------------------------


async def plan(engine: AsyncEngine, query: Select[object]) -> str:
    sql = str(query.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    async with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            rows = (await conn.execute(text(f"EXPLAIN QUERY PLAN {sql}"))).all()
            return "\n".join(str(row[-1]) for row in rows)
        # A test table is tiny, where a sequential scan is cheaper: ask whether the
        # index CAN serve the query, which is what it does on a big table.
        await conn.execute(text("SET LOCAL enable_seqscan = off"))
        rows = (await conn.execute(text(f"EXPLAIN {sql}"))).all()
        return "\n".join(str(row[0]) for row in rows)


async def test_search_reads_the_index_of_words(store: SqlStore, people: SqlPeople) -> None:
    dialect = store.engine.dialect.name
    query = people_query(dialect, search_words("ann bo"), {1, 2}, None, 20)
    shown = await plan(store.engine, query)
    index = "ix_users_search" if dialect == "postgresql" else "SCAN users_fts VIRTUAL TABLE"
    assert index in shown, shown
    assert "SCAN users\n" not in f"{shown}\n" and "Seq Scan" not in shown, shown


async def test_a_follow_list_page_is_one_index_range(store: SqlStore, people: SqlPeople) -> None:
    before = FollowKey(NOW, 5)
    for mine, other, index in (
        (follows.c.followee_id, follows.c.follower_id, "ix_follows_followee_id_created_at"),
        (follows.c.follower_id, follows.c.followee_id, "ix_follows_follower_id_created_at"),
    ):
        shown = await plan(store.engine, people.follow_page_query(mine, other, 7, before, 20))
        assert index in shown, shown


async def test_a_likers_or_reposters_page_is_one_index_range(
    store: SqlStore, people: SqlPeople
) -> None:
    likers = people.follow_page_query(
        likes.c.post_id, likes.c.user_id, 7, FollowKey(NOW, 5), 20, likes
    )
    shown = await plan(store.engine, likers)
    assert "ix_likes_post_id_created_at" in shown, shown
    shown = await plan(store.engine, people.reposters_query(7, 99, 20))
    assert "ix_posts_repost_of_id" in shown, shown


# -- migration 0005 on old data ------------------------------------------------------


@pytest.mark.parametrize("dialect", SQL_DIALECTS)
async def test_the_migration_renames_case_duplicates_keeping_the_oldest(
    dialect: str, tmp_path: Path
) -> None:
    async with engine_at_revision("0002", dialect, tmp_path) as engine, engine.begin() as conn:
        for user_id, name, age in (
            (1, "kim", 3),
            (2, "KIM", 2),
            (3, "Kim", 1),
            (4, "kim_2", 0),
        ):
            await conn.execute(
                text(
                    "INSERT INTO users (id, username, display_name, password_hash, created_at)"
                    " VALUES (:id, :name, :name, 'h', :at)"
                ),
                {"id": user_id, "name": name, "at": NOW - timedelta(days=age)},
            )
        await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
        rows = await conn.execute(text("SELECT id, username FROM users ORDER BY id"))
        assert {row.id: row.username for row in rows} == {
            1: "kim",
            2: "KIM_3",
            3: "Kim_4",
            4: "kim_2",
        }
