"""PostSearch and PostEdits contract on SQLite and PostgreSQL: the index follows every
write of a post in its own transaction (publish, edit, delete, erasure), matches any
language with case and Latin accents ignored, keeps to what a reader may read by
visibility, pages by key in both orders; an edit keeps every version it replaced;
migration 0022 indexes posts written before it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from feedloom.adapters.sql.edits import SqlPostEdits
from feedloom.adapters.sql.erasure import SqlAccountEraser
from feedloom.adapters.sql.people import SqlPeople
from feedloom.adapters.sql.search import SqlSearch, tags_query
from feedloom.domain.errors import NotFound
from feedloom.domain.model import Visibility
from feedloom.domain.search import SearchOrder, search_words
from tests.contract.sql_store import (
    NOW,
    SQL_DIALECTS,
    SqlStore,
    alembic_config,
    engine_at_revision,
    open_sql_store,
)
from tests.contract.test_sql_people import plan

NEWEST, RELEVANCE = SearchOrder.NEWEST, SearchOrder.RELEVANCE


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def index(store: SqlStore) -> SqlSearch:
    return SqlSearch(store.engine)


@pytest.fixture
def edits(store: SqlStore) -> SqlPostEdits:
    return SqlPostEdits(store.engine)


async def found(
    index: SqlSearch, query: str, readers: set[int] | None = None, order: SearchOrder = NEWEST
) -> list[int]:
    keys = await index.find_posts(search_words(query), readers or set(), None, 50, order)
    return [key.post_id for key in keys]


async def test_any_language_is_found_by_its_words_case_and_accents_ignored(
    store: SqlStore, index: SqlSearch
) -> None:
    kim = await store.user("kim")
    bengali = await store.post(kim, "আমি বাংলায় গান গাই। রাজশাহী ক্ষমা")
    french = await store.post(kim, "Un café crème à Besançon, s'il vous plaît")
    assert await found(index, "বাংলায়") == [bengali]
    assert await found(index, "ক্ষমা গান") == [bengali]
    assert await found(index, "cafe") == [french]
    assert await found(index, "CAFÉ besancon") == [french]
    assert await found(index, "café thé") == []  # every word must be there
    assert await found(index, "caf") == []  # whole words, not prefixes


async def test_the_index_follows_edits_deletes_and_erasure_at_once(
    store: SqlStore, index: SqlSearch, edits: SqlPostEdits
) -> None:
    kim, bo = await store.user("kim"), await store.user("bo")
    typo = await store.post(kim, "a helo world")
    gone = await store.post(kim, "hello world")
    erased = await store.post(bo, "hello from bo")
    await edits.edit_post(typo, kim, "a hello world", (), (), None, "hash", NOW)
    assert await found(index, "helo") == []
    assert set(await found(index, "hello")) == {typo, gone, erased}
    await store.posts.tombstone(gone, NOW)
    await SqlAccountEraser(store.engine).erase_account(bo, NOW)
    assert await found(index, "hello") == [typo]


async def test_followers_only_posts_are_found_by_the_readers_named_only(
    store: SqlStore, index: SqlSearch
) -> None:
    kim, friend = await store.user("kim"), await store.user("friend")
    public = await store.post(kim, "garden news")
    private = replace(store.new_post(kim, "garden secret"), visibility=Visibility.FOLLOWERS)
    await store.posts.create_post(private, None, "hash", NOW)
    assert await found(index, "garden") == [public]
    assert await found(index, "garden", {kim, friend}) == [private.id, public]


async def test_pages_follow_by_key_newest_first_or_by_relevance(
    store: SqlStore, index: SqlSearch
) -> None:
    kim = await store.user("kim")
    ids = [await store.post(kim, f"river {n}") for n in range(5)]
    best = await store.post(kim, "river river river banks of the river")
    words = search_words("river")
    first = await index.find_posts(words, set(), None, 2, NEWEST)
    assert [key.post_id for key in first] == [best, ids[4]]
    rest = await index.find_posts(words, set(), first[-1], 10, NEWEST)
    assert [key.post_id for key in rest] == ids[3::-1]
    ranked = await index.find_posts(words, set(), None, 2, RELEVANCE)
    assert ranked[0].post_id == best and ranked[0].score > ranked[1].score
    after = await index.find_posts(words, set(), ranked[-1], 10, RELEVANCE)
    everything = [key.post_id for key in [*ranked, *after]]
    assert sorted(everything) == sorted([*ids, best])  # each once, none skipped


async def test_an_edit_keeps_every_version_it_replaced(
    store: SqlStore, edits: SqlPostEdits
) -> None:
    kim, bo = await store.user("kim"), await store.user("bo")
    post_id = await store.post(kim, "first")
    await edits.edit_post(post_id, kim, "second", (), (), None, "h2", NOW)
    await edits.edit_post(post_id, kim, "third", (), (), None, "h3", NOW)
    versions = await edits.versions(post_id)
    assert [version.text for version in versions] == ["first", "second"]
    assert versions[1].written_at == NOW
    current = (await store.posts.posts([post_id]))[post_id]
    assert (current.text, current.edited_at) == ("third", NOW)
    with pytest.raises(NotFound):
        await edits.edit_post(post_id, bo, "not yours", (), (), None, "h4", NOW)
    await store.posts.tombstone(post_id, NOW)
    with pytest.raises(NotFound):
        await edits.edit_post(post_id, kim, "too late", (), (), None, "h5", NOW)
    assert len(await edits.versions(post_id)) == 2


async def test_an_edit_key_answers_its_first_edit_again(
    store: SqlStore, edits: SqlPostEdits
) -> None:
    kim = await store.user("kim")
    post_id = await store.post(kim, "first")
    await edits.edit_post(post_id, kim, "second", (), (), "key-1", "h2", NOW)
    again = await edits.edit_post(post_id, kim, "second", (), (), "key-1", "h2", NOW)
    assert (again.kind, again.result_id, again.request_hash) == ("edit", post_id, "h2")
    assert len(await edits.versions(post_id)) == 1


async def test_a_search_of_posts_reads_the_index(store: SqlStore, index: SqlSearch) -> None:
    query = index.posts_query(search_words("river banks"), {1, 2}, None, 20, NEWEST)
    shown = await plan(store.engine, query)
    expected = "ix_posts_search" if store.engine.dialect.name == "postgresql" else "posts_fts"
    assert expected in shown, shown


@pytest.mark.parametrize("dialect", SQL_DIALECTS)
async def test_the_migration_indexes_posts_and_people_written_before_it(
    dialect: str, tmp_path: Path
) -> None:
    async with engine_at_revision("0021", dialect, tmp_path) as engine:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO users (id, username, display_name, password_hash, created_at) "
                    "VALUES (1, 'alice_w', 'Alice Wonder', 'x', CURRENT_TIMESTAMP)"
                )
            )
            for post_id, said, deleted in ((10, "old river", None), (11, "old gone", "x")):
                at = "CURRENT_TIMESTAMP" if deleted else "NULL"
                await conn.execute(
                    text(
                        "INSERT INTO posts (id, author_id, text, media, visibility, deleted_at)"
                        f" VALUES ({post_id}, 1, '{said}', '[]', 'public', {at})"
                    )
                )
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
        index = SqlSearch(engine)
        assert [k.post_id for k in await index.find_posts(["old"], set(), None, 5, NEWEST)] == [10]
        assert await index.find_posts(["gone"], set(), None, 5, NEWEST) == []
        keys = await SqlPeople(engine).search(["wond"], set(), None, 5)
        assert [key.user_id for key in keys] == [1]


async def test_a_search_of_tags_is_one_range_of_their_names(store: SqlStore) -> None:
    dialect = store.engine.dialect.name
    shown = await plan(store.engine, tags_query(dialect, "caf", None, 20))
    expected = "ix_tags_name_c" if dialect == "postgresql" else "ux_tags_name"
    assert expected in shown, shown
