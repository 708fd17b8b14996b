"""Erasure contract on SQLite and PostgreSQL: one transaction removes an account's
relations, engagement, media, keys and tokens, moves the counts, tombstones its posts,
keeps a blank row; a deleted account's username is released only after the cutoff;
and migration 0009 on old comment keys."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from feedloom.adapters.sql.erasure import SqlAccountEraser
from feedloom.domain.model import Counts, Media
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


async def test_an_erased_account_keeps_only_a_blank_row_and_post_tombstones(
    store: SqlStore,
) -> None:
    alice, bob, carol = await store.user("alice"), await store.user("bob"), await store.user("c")
    await store.graph.follow(alice, bob, NOW)
    await store.graph.follow(carol, alice, NOW)
    await store.graph.mute(bob, alice, NOW)
    own, bobs = await store.post(alice), await store.post(bob)
    await store.engagement.like(bobs, alice, NOW)
    await store.engagement.like(own, carol, NOW)
    said = replace(store.new_post(alice, "hi"), in_reply_to=bobs)
    await store.posts.create_post(said, "k", "h", NOW, "comment")
    theirs = await store.reply(carol, own, "yo")
    await store.posts.create_media(Media(77, "/media/77.png", 4, 4), alice, NOW)
    await store.accounts.create_token("t" * 64, alice, NOW)

    erased = await SqlAccountEraser(store.engine).erase_account(alice, NOW)

    assert erased.post_ids == [own, said.id] and erased.touched_post_ids == [bobs]
    assert erased.related_user_ids == sorted([bob, carol])
    assert (erased.token_hashes, erased.media_files) == (["t" * 64], ["77.png"])
    # Her replies are her posts (tombstones now); others' replies to hers are theirs.
    counts = await store.engagement.true_counts([own, bobs])
    assert counts == {own: Counts(comments=1), bobs: Counts()}
    assert not (await store.posts.posts([theirs]))[theirs].deleted
    profiles = await store.accounts.profiles([alice, bob, carol])
    assert (profiles[bob].followers, profiles[carol].following) == (0, 0)
    assert profiles[alice].suspended and profiles[alice].display_name == ""
    assert await store.graph.muted(bob) == set()
    post = (await store.posts.posts([own]))[own]
    assert post.deleted and post.text == "" and post.media == ()
    assert await store.accounts.session_for_token("t" * 64) is None
    assert await store.posts.stored_response(alice, "k") is None
    assert await store.accounts.credentials("alice") is None
    record = await store.accounts.account("alice")
    assert record is not None and record.deleted_at == NOW


async def test_a_deleted_username_is_released_only_after_the_cutoff(store: SqlStore) -> None:
    alice = await store.user("alice")
    await SqlAccountEraser(store.engine).erase_account(alice, NOW)
    assert await store.accounts.release_username("ALICE", NOW) is False
    assert await store.accounts.release_username("alice", NOW + timedelta(seconds=1)) is True
    assert await store.accounts.account("alice") is None
    assert await store.accounts.account(f"deleted_{alice}") is not None
    assert await store.accounts.release_username("bob", NOW + timedelta(days=1)) is False


@pytest.mark.parametrize("dialect", SQL_DIALECTS)
async def test_migration_0009_moves_the_comment_keys_to_the_shared_table(
    dialect: str, tmp_path: Path
) -> None:
    async with engine_at_revision("0007", dialect, tmp_path) as engine, engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO users (id, username, display_name, password_hash, created_at) "
                "VALUES (1, 'kim', 'Kim', 'h', :at)"
            ),
            {"at": NOW},
        )
        for comment_id, key in ((10, "k1"), (11, None)):
            await conn.execute(
                text(
                    "INSERT INTO comments (id, post_id, author_id, text, created_at, "
                    "idempotency_key) VALUES (:id, 5, 1, 'hi', :at, :key)"
                ),
                {"id": comment_id, "at": NOW, "key": key},
            )
        await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
        rows = (await conn.execute(text("SELECT * FROM idempotency_keys"))).all()
        assert [(r.user_id, r.key, r.post_id, r.kind, r.request_hash) for r in rows] == [
            (1, "k1", 10, "comment", "")
        ]
