"""SqlTags and the write-time `record_facets` on SQLite and PostgreSQL: mentions
resolved and recorded with their post, tags counted, re-recording an edited text
changes only what changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from feedloom.adapters.sql.erasure import SqlAccountEraser
from feedloom.adapters.sql.facets import record_facets
from feedloom.adapters.sql.tags import SqlTags
from feedloom.domain.facets import parse_facets, resolve_mentions
from feedloom.domain.model import Post, Visibility
from tests.contract.sql_store import NOW, SQL_DIALECTS, SqlStore, open_sql_store


@pytest.fixture(params=SQL_DIALECTS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with open_sql_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def tags(store: SqlStore) -> SqlTags:
    return SqlTags(store.engine)


async def _faceted(store: SqlStore, tags: SqlTags, author: int, text: str) -> Post:
    facets = parse_facets(text)
    names = [f.value.lower() for f in facets if f.kind == "mention"]
    accounts = await tags.resolve_usernames(author, names)
    return replace(store.new_post(author, text), facets=tuple(resolve_mentions(facets, accounts)))


async def test_usernames_resolve_whatever_their_case_except_for_blockers(
    store: SqlStore, tags: SqlTags
) -> None:
    author, kim, lee = await store.user("author"), await store.user("Kim"), await store.user("lee")
    await store.graph.block(lee, author, NOW)
    found = await tags.resolve_usernames(author, ["kim", "lee", "nobody"])
    assert found == {"kim": (kim, "Kim")}


async def test_a_post_records_its_mentions_and_tags_in_its_transaction(
    store: SqlStore, tags: SqlTags
) -> None:
    author, kim = await store.user("author"), await store.user("kim")
    post = await _faceted(store, tags, author, "@kim #Café #café")
    await store.posts.create_post(post, None, "hash", NOW)
    assert [(m.post_id, m.user_id, m.author_id) for m in await tags.mentions_in([post.id])] == [
        (post.id, kim, author)
    ]
    assert [m.post_id for m in await tags.mentions_of(kim, None, 5)] == [post.id]
    cafe = (await tags.tags(["café"]))["café"]
    assert cafe.posts_count == 1
    assert await tags.tag_post_ids(cafe.id, None, 5) == [post.id]
    assert (await store.posts.posts([post.id]))[post.id].facets == post.facets


async def test_recording_again_changes_only_what_changed(store: SqlStore, tags: SqlTags) -> None:
    author = await store.user("author")
    kim, lee = await store.user("kim"), await store.user("lee")
    post = await _faceted(store, tags, author, "@kim #one")
    await store.posts.create_post(post, None, "hash", NOW)
    edited = replace(await _faceted(store, tags, author, "@kim @lee #two"), id=post.id)
    async with store.engine.begin() as conn:
        added = await record_facets(conn, edited, NOW)
    async with store.engine.begin() as conn:
        again = await record_facets(conn, edited, NOW)
    assert (added, again) == ([lee], [])
    assert {m.user_id for m in await tags.mentions_in([post.id])} == {kim, lee}
    counts = await tags.tags(["one", "two"])
    assert (counts["one"].posts_count, counts["two"].posts_count) == (0, 1)


async def test_a_deleted_post_leaves_its_tags_and_mention_lists(
    store: SqlStore, tags: SqlTags
) -> None:
    author, kim = await store.user("author"), await store.user("kim")
    post = await _faceted(store, tags, author, "@kim #gone")
    await store.posts.create_post(post, None, "hash", NOW)
    await store.posts.tombstone(post.id, NOW)
    gone = (await tags.tags(["gone"]))["gone"]
    assert gone.posts_count == 0
    assert await tags.tag_post_ids(gone.id, None, 5) == []
    assert await tags.mentions_of(kim, None, 5) == []


async def test_a_followers_only_post_is_on_no_tag_page(store: SqlStore, tags: SqlTags) -> None:
    author = await store.user("author")
    post = replace(await _faceted(store, tags, author, "#quiet"), visibility=Visibility.FOLLOWERS)
    await store.posts.create_post(post, None, "hash", NOW)
    quiet = (await tags.tags(["quiet"]))["quiet"]
    assert quiet.posts_count == 0
    assert await tags.tag_post_ids(quiet.id, None, 5) == []


async def test_an_erased_account_leaves_tags_and_mentions(store: SqlStore, tags: SqlTags) -> None:
    author, kim = await store.user("author"), await store.user("kim")
    for _ in range(2):
        post = await _faceted(store, tags, author, "@kim #erased")
        await store.posts.create_post(post, None, "hash", NOW)
    await SqlAccountEraser(store.engine).erase_account(author, NOW)
    assert (await tags.tags(["erased"]))["erased"].posts_count == 0
    assert await tags.mentions_of(kim, None, 5) == []
    assert (await store.posts.posts([post.id]))[post.id].facets == ()
