"""The cached post and profile views: new fields round-trip, and views cached before
they existed are misses (reloaded from the store)."""

from __future__ import annotations

import orjson

from feedloom.adapters.redis.views import dump_post, dump_profile, load_post, load_profile
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, MediaSize, Post, UserProfile, Visibility


def test_a_profile_with_a_bio_round_trips() -> None:
    profile = UserProfile(7, "kim", "Kim", "/media/1.png", 3, 4, True, bio="hello")
    assert load_profile(7, dump_profile(profile)) == profile


def test_a_view_cached_before_bios_existed_is_a_miss() -> None:
    old = orjson.dumps(["kim", "Kim", None, 3, 4, False])
    assert load_profile(7, old) is None


def test_a_post_view_carries_alt_and_sizes_and_old_views_are_misses() -> None:
    post_id = 386188334126333952
    media = Media(
        5, "/media/5.png", 1200, 800, "a field", (MediaSize("/media/5_160.webp", 160, 107),)
    )
    post = Post(post_id, 7, "hi", Visibility.PUBLIC, created_at_of(post_id), (media,))
    assert load_post(post_id, dump_post(post)) == post
    old = orjson.dumps([7, "hi", "public", [[5, "/media/5.png", 1200, 800]], False])
    assert load_post(post_id, old) is None
