"""Cached post and profile views carry the suspension flag and their media's pending
state (an upload the worker has not checked is never shown), and a view of a shape
this code does not know (cached by another version, e.g. before a field existed) is a
miss: reloaded from the store, never read with a field missing or misplaced."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson

from feedloom.adapters.redis.views import dump_post, dump_profile, load_post, load_profile
from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import Media, Post, UserProfile, Visibility


def test_a_post_view_round_trips_with_its_authors_suspension() -> None:
    post_id = IdGenerator(1).next_id()
    post = load_post(post_id, dump_post(Post(post_id, 7, "x", Visibility.PUBLIC, NOW)))
    assert post is not None
    hidden = Post(post_id, 7, "x", Visibility.PUBLIC, post.created_at, author_suspended=True)
    assert load_post(post_id, dump_post(hidden)) == hidden
    assert not post.author_suspended


def test_a_post_view_round_trips_with_its_pending_media() -> None:
    post_id = IdGenerator(1).next_id()
    media = (
        Media(1, "/media/1-a.png", 4, 4, "", (), pending=True),
        Media(2, "/media/2-b.png", 4, 4),
    )
    post = Post(post_id, 7, "x", Visibility.PUBLIC, created_at_of(post_id), media)
    loaded = load_post(post_id, dump_post(post))
    assert loaded == post and loaded is not None
    assert [m.id for m in loaded.shown_media] == [2]
    p4 = orjson.dumps(["p4", 7, "x", "public", [[1, "/media/1-a.png", 4, 4, "", []]], False])
    assert load_post(post_id, p4) is None  # cached before `pending`: a miss


def test_a_profile_view_round_trips_with_its_suspension() -> None:
    profile = UserProfile(7, "ada", "Ada", None, 3, 4, False, suspended=True)
    assert load_profile(7, dump_profile(profile)) == profile


def test_a_profile_view_round_trips_with_its_deletion() -> None:
    erased = UserProfile(7, "ada", "", None, suspended=True, deleted=True)
    assert load_profile(7, dump_profile(erased)) == erased
    before = orjson.dumps(["ada", "", None, 0, 0, False, True, "", False])  # no deletion flag
    assert load_profile(7, before) is None  # an older shape: a miss, reloaded from the store


def test_views_of_an_older_shape_are_misses() -> None:
    post_id = IdGenerator(1).next_id()
    assert load_post(post_id, orjson.dumps([7, "x", "public", [], False])) is None
    assert load_post(post_id, orjson.dumps([7, "x", "public", [], False, False, False])) is None
    assert load_profile(7, orjson.dumps(["ada", "Ada", None, 3, 4, False])) is None


def test_views_of_a_newer_shape_are_misses() -> None:
    post_id = IdGenerator(1).next_id()
    newer = orjson.dumps(["p9", 7, "x", "public", [], False, False, False, None, None, "en"])
    assert load_post(post_id, newer) is None
    assert load_profile(7, orjson.dumps(["u9", "ada", "Ada"])) is None


NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_a_post_view_round_trips_with_its_edit_time_and_p6_is_a_miss() -> None:
    post_id = IdGenerator(1).next_id()
    edited = Post(post_id, 7, "x", Visibility.PUBLIC, created_at_of(post_id), edited_at=NOW)
    assert load_post(post_id, dump_post(edited)) == edited
    p6 = orjson.dumps(["p6", 7, "x", "public", [], False, False, False, *[None] * 4, 0, 0, []])
    assert load_post(post_id, p6) is None  # cached before edits: a miss
