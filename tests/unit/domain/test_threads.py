"""Threads: paths sort depth first and name the ancestors; the reply rule."""

from __future__ import annotations

from feedloom.domain.threads import (
    MAX_DEPTH,
    ancestor_ids,
    path_of,
    reply_path,
    reply_reaches,
    reply_recipients,
    subtree_end,
)

ROOT = 1 << 40


def test_paths_in_string_order_are_the_thread_depth_first_with_replies_oldest_first() -> None:
    a = reply_path(ROOT, None, ROOT + 1)
    b = reply_path(ROOT, None, ROOT + 2)
    a1 = reply_path(ROOT + 1, a, ROOT + 3)
    assert a and b and a1
    assert sorted([b, a1, a]) == [a, a1, b]
    assert path_of(ROOT, None) < a < subtree_end(path_of(ROOT, None))
    assert a < a1 < subtree_end(a) < b


def test_a_path_names_its_ancestors_root_first() -> None:
    a = reply_path(ROOT, None, ROOT + 1)
    a1 = reply_path(ROOT + 1, a, ROOT + 3)
    assert a1 is not None and ancestor_ids(a1) == [ROOT, ROOT + 1]
    assert ancestor_ids(path_of(ROOT, None)) == []


def test_a_thread_deeper_than_the_limit_has_no_path() -> None:
    path: str | None = None
    parent = ROOT
    for depth in range(1, MAX_DEPTH):
        path = reply_path(parent, path, ROOT + depth)
        assert path is not None
        parent = ROOT + depth
    assert reply_path(parent, path, ROOT + MAX_DEPTH) is None


def test_a_reply_to_someone_else_reaches_those_who_follow_both_or_are_them() -> None:
    reader, author, other = 1, 2, 3
    assert reply_reaches(reader, author, other, follows_replied_to=True)
    assert not reply_reaches(reader, author, other, follows_replied_to=False)
    assert reply_reaches(other, author, other, follows_replied_to=False)
    assert reply_reaches(author, author, other, follows_replied_to=False)


def test_a_thread_and_a_post_reach_every_follower() -> None:
    assert reply_reaches(1, 2, 2, follows_replied_to=False)
    assert reply_reaches(1, 2, None, follows_replied_to=False)
    assert reply_recipients([5, 6, 7], 2, 3, also_follow={6}) == [6]
    assert reply_recipients([3, 5], 2, 3, also_follow=set()) == [3]
