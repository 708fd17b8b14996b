"""The pure repost rules: who may share what, which reposts a reader sees, and the
no-double-posts bookkeeping of one scroll."""

from __future__ import annotations

import pytest

from feedloom.domain.errors import NotShareable
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Post, Visibility
from feedloom.domain.reposts import (
    CARRIED,
    FALLOFF,
    ShownOriginals,
    check_shareable,
    falls_off,
    repost_seen_by,
)


def post(post_id: int, author: int = 1, repost_of: int | None = None) -> Post:
    at = created_at_of(post_id)
    return Post(post_id, author, "", Visibility.PUBLIC, at, repost_of=repost_of)


def test_only_public_posts_can_be_shared_and_the_refusal_says_whose() -> None:
    check_shareable(post(1), 2, "reposted")
    private = Post(1, 1, "", Visibility.FOLLOWERS, created_at_of(1))
    with pytest.raises(NotShareable, match="someone else's followers-only"):
        check_shareable(private, 2, "reposted")
    with pytest.raises(NotShareable, match="your own followers-only"):
        check_shareable(private, 1, "quoted")


def test_a_reader_sees_no_reposts_of_their_own_posts_nor_from_followees_turned_off() -> None:
    assert repost_seen_by(9, reposter_id=2, original_author=3, reposts_off=frozenset())
    assert not repost_seen_by(9, reposter_id=2, original_author=9, reposts_off=frozenset())
    assert not repost_seen_by(9, reposter_id=2, original_author=3, reposts_off=frozenset({2}))
    assert repost_seen_by(9, reposter_id=9, original_author=3, reposts_off=frozenset({9}))


def test_an_original_within_falloff_entries_below_makes_its_repost_redundant() -> None:
    below = list(range(1000, 1000 - 2 * FALLOFF, -1))
    assert falls_off(below[FALLOFF - 1], below)
    assert not falls_off(below[FALLOFF], below)


def test_an_original_is_admitted_once_per_scroll_and_its_post_left_out_after() -> None:
    shown = ShownOriginals()
    assert shown.admit(post(500, repost_of=10), below=[])
    assert not shown.admit(post(400, repost_of=10), below=[])
    assert not shown.admit(post(10), below=[])
    assert shown.admit(post(11), below=[])


def test_the_cursor_carries_the_nearest_originals_still_ahead_bounded() -> None:
    shown = ShownOriginals()
    for original in range(1, CARRIED + 10):
        shown.admit(post(10_000 + original, repost_of=original), below=[])
    carried = shown.carry(before=CARRIED + 5)
    assert carried == tuple(range(CARRIED + 4, 4, -1))[:CARRIED]
    assert len(carried) == CARRIED
    next_page = ShownOriginals(carried)
    assert not next_page.admit(post(CARRIED + 4), below=[])
