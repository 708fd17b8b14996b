"""The cached profile view: bios round-trip, and views cached before bios still load."""

from __future__ import annotations

import orjson

from feedloom.domain.model import UserProfile
from feedloom.lookups.views import dump_profile, load_profile


def test_a_profile_with_a_bio_round_trips() -> None:
    profile = UserProfile(7, "kim", "Kim", "/media/1.png", 3, 4, True, "hello")
    assert load_profile(7, dump_profile(profile)) == profile


def test_a_view_cached_before_bios_existed_loads_with_an_empty_bio() -> None:
    old = orjson.dumps(["kim", "Kim", None, 3, 4, False])
    assert load_profile(7, old) == UserProfile(7, "kim", "Kim", None, 3, 4, False, "")
