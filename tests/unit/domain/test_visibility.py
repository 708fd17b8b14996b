from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.facets import Facet
from feedloom.domain.model import Post, Visibility
from feedloom.domain.visibility import (
    FilterReason,
    ViewerContext,
    author_in_feed,
    feed_filter,
    followed_tag,
    may_see,
    out_of_network_filter,
    thread_filter,
)

READER, FRIEND, STRANGER = 1, 2, 3


def post(author: int, visibility: Visibility = Visibility.PUBLIC, deleted: bool = False) -> Post:
    return Post(10, author, "x", visibility, datetime(2026, 1, 1, tzinfo=UTC), deleted=deleted)


def viewer(tags: frozenset[str] = frozenset(), **relations: frozenset[int]) -> ViewerContext:
    base = {"following": frozenset({FRIEND}), "blocked": frozenset(), "muted": frozenset()}
    sets = {**base, **relations}
    return ViewerContext(
        READER,
        sets["following"],
        sets["blocked"],
        sets["muted"],
        reposts_off=sets.get("reposts_off", frozenset()),
        tags=tags,
    )


def tagged(author: int, tag: str, visibility: Visibility = Visibility.PUBLIC) -> Post:
    text = f"#{tag}"
    facets = (Facet("tag", 0, len(text), tag),)
    return replace(post(author, visibility), text=text, facets=facets)


def test_a_public_post_with_a_followed_tag_joins_the_feed_from_anyone() -> None:
    reader = viewer(tags=frozenset({"café"}))
    assert feed_filter(reader, tagged(STRANGER, "café")) is None
    assert followed_tag(reader, tagged(STRANGER, "café")) == "café"
    assert feed_filter(reader, tagged(STRANGER, "tea")) == FilterReason.UNFOLLOWED
    assert feed_filter(viewer(), tagged(STRANGER, "café")) == FilterReason.UNFOLLOWED


def test_a_followed_tag_brings_no_private_muted_or_blocked_post() -> None:
    tags = frozenset({"café"})
    private = tagged(STRANGER, "café", Visibility.FOLLOWERS)
    assert feed_filter(viewer(tags), private) == FilterReason.PRIVATE
    muted = viewer(tags, muted=frozenset({STRANGER}))
    assert feed_filter(muted, tagged(STRANGER, "café")) == FilterReason.MUTED
    blocked = viewer(tags, blocked=frozenset({STRANGER}))
    assert feed_filter(blocked, tagged(STRANGER, "café")) == FilterReason.BLOCKED


def test_a_followed_authors_public_post_is_shown() -> None:
    assert feed_filter(viewer(), post(FRIEND)) is None


def test_deleted_posts_are_dropped_even_the_readers_own() -> None:
    assert feed_filter(viewer(), post(READER, deleted=True)) is FilterReason.DELETED


def test_blocked_authors_are_dropped() -> None:
    assert feed_filter(viewer(blocked=frozenset({FRIEND})), post(FRIEND)) is FilterReason.BLOCKED


def test_muted_authors_leave_the_feed_but_not_the_profile() -> None:
    context = viewer(muted=frozenset({FRIEND}))
    assert feed_filter(context, post(FRIEND)) is FilterReason.MUTED
    assert may_see(context, post(FRIEND)) is None


def test_unfollowed_authors_leave_the_feed() -> None:
    assert feed_filter(viewer(), post(STRANGER)) is FilterReason.UNFOLLOWED


def test_followers_only_posts_are_private_to_non_followers() -> None:
    assert may_see(viewer(), post(STRANGER, Visibility.FOLLOWERS)) is FilterReason.PRIVATE
    assert may_see(viewer(), post(FRIEND, Visibility.FOLLOWERS)) is None


def test_the_reader_always_sees_their_own_followers_only_posts() -> None:
    assert feed_filter(viewer(), post(READER, Visibility.FOLLOWERS)) is None


def test_a_suspended_authors_posts_are_hidden_everywhere_even_from_followers() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    hidden = Post(10, FRIEND, "x", Visibility.PUBLIC, at, author_suspended=True)
    assert feed_filter(viewer(), hidden) is FilterReason.SUSPENDED
    assert may_see(viewer(), hidden) is FilterReason.SUSPENDED


PEOPLE = st.frozensets(st.integers(1, 6))


@given(PEOPLE, PEOPLE, PEOPLE, st.integers(1, 6), st.sampled_from(Visibility))
def test_author_in_feed_is_exactly_what_the_feed_filter_decides_from_the_author(
    following: frozenset[int],
    blocked: frozenset[int],
    muted: frozenset[int],
    author: int,
    visibility: Visibility,
) -> None:
    """The read path counts a view before filtering on `author_in_feed` (read/hydrate.py):
    for a live, unheld post it must agree with `feed_filter`."""
    context = ViewerContext(READER, following, blocked, muted)
    decided = feed_filter(context, post(author, visibility))
    assert author_in_feed(context, author) == (decided is None)


def test_a_reply_to_someone_the_reader_does_not_follow_stays_out_of_the_feed() -> None:
    reply = replace(post(FRIEND), in_reply_to=9, reply_to_author=STRANGER)
    assert feed_filter(viewer(), reply) is FilterReason.REPLY
    both = viewer(following=frozenset({FRIEND, STRANGER}))
    assert feed_filter(both, reply) is None
    to_me = replace(reply, reply_to_author=READER)
    assert feed_filter(viewer(), to_me) is None
    thread = replace(reply, reply_to_author=FRIEND)
    assert feed_filter(viewer(), thread) is None
    mine = replace(post(READER), in_reply_to=9, reply_to_author=STRANGER)
    assert feed_filter(viewer(), mine) is None


def test_a_thread_shows_what_the_reader_may_see_less_the_muted() -> None:
    assert thread_filter(viewer(), post(STRANGER)) is None
    assert thread_filter(viewer(muted=frozenset({STRANGER})), post(STRANGER)) is FilterReason.MUTED
    assert (
        thread_filter(viewer(blocked=frozenset({STRANGER})), post(STRANGER)) is FilterReason.BLOCKED
    )
    assert thread_filter(viewer(), post(STRANGER, Visibility.FOLLOWERS)) is FilterReason.PRIVATE


def test_a_strangers_public_post_may_be_recommended_but_nothing_the_reader_chose_against() -> None:
    assert out_of_network_filter(viewer(), post(STRANGER)) is None
    assert out_of_network_filter(viewer(blocked=frozenset({STRANGER})), post(STRANGER)) is (
        FilterReason.BLOCKED
    )
    assert out_of_network_filter(viewer(muted=frozenset({STRANGER})), post(STRANGER)) is (
        FilterReason.MUTED
    )
    followers_only = post(STRANGER, Visibility.FOLLOWERS)
    assert out_of_network_filter(viewer(), followers_only) is FilterReason.PRIVATE
    # Followed (or own) posts are the home feed's already: never recommended.
    assert out_of_network_filter(viewer(), post(FRIEND)) is FilterReason.DUPLICATE
    assert out_of_network_filter(viewer(), post(READER)) is FilterReason.DUPLICATE
