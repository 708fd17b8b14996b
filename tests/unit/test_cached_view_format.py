"""Cached post and profile views carry the suspension flag, and views cached before the
flag existed (one field less) still load, as not suspended."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson

from feedloom.adapters.redis.views import dump_post, dump_profile, load_post, load_profile
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Post, UserProfile, Visibility


def test_a_post_view_round_trips_with_its_authors_suspension() -> None:
    post_id = IdGenerator(1).next_id()
    post = load_post(post_id, dump_post(Post(post_id, 7, "x", Visibility.PUBLIC, NOW)))
    hidden = Post(post_id, 7, "x", Visibility.PUBLIC, post.created_at, author_suspended=True)
    assert load_post(post_id, dump_post(hidden)) == hidden
    assert not post.author_suspended


def test_a_profile_view_round_trips_with_its_suspension() -> None:
    profile = UserProfile(7, "ada", "Ada", None, 3, 4, False, suspended=True)
    assert load_profile(7, dump_profile(profile)) == profile


def test_a_profile_view_round_trips_with_its_deletion() -> None:
    erased = UserProfile(7, "ada", "", None, suspended=True, deleted=True)
    assert load_profile(7, dump_profile(erased)) == erased
    before = orjson.dumps(["ada", "", None, 0, 0, False, True, "", False])  # no deletion flag
    assert not load_profile(7, before).deleted


def test_views_cached_before_the_flag_load_as_not_suspended() -> None:
    post_id = IdGenerator(1).next_id()
    assert not load_post(post_id, orjson.dumps([7, "x", "public", [], False])).author_suspended
    assert not load_profile(7, orjson.dumps(["ada", "Ada", None, 3, 4, False])).suspended


NOW = datetime(2026, 12, 1, tzinfo=UTC)
