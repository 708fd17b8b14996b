"""Replies and threads: where a reply sits in its thread, and whom it reaches.

A thread is a tree of posts under a root post. Each reply stores its *path*: the IDs
from the root down to itself, each as 16 hex digits. IDs grow with time, so ordering
a thread's paths as strings is the depth-first order with each post's replies oldest
first, and "the descendants of X" are the paths that start with X's path: one range
of one index, keyset-paged, whatever the thread's size (adapters/sql/threads.py).
The path also names every ancestor, oldest first.

Which replies reach a home feed is Mastodon's rule: a reply to someone else's post
reaches a follower only if the follower also follows the account replied to (or is
that account); a reply to one's own post (a thread) reaches every follower. Fan-out
applies it with the batch's relations read once; the home feed applies it again at
read time, so an unfollow counts on the next read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from feedloom.domain.errors import BadCursor
from feedloom.domain.patterns import whole

SEGMENT = 16  # hex digits per ID: 64-bit IDs, fixed width so strings sort as numbers
# Deeper replies are refused: a path must fit a B-tree index entry (PostgreSQL's limit
# is about 2,700 bytes; 128 segments are 2,048).
MAX_DEPTH = 128
# A thread page's cursor: `t` and the path of the last descendant served. Any string of
# hex digits is a place in the depth-first order to go on after, so every cursor the
# pattern admits is a well-formed page (opaque to clients all the same).
THREAD_CURSOR_PATTERN = whole(f"t[0-9a-f]{{1,{MAX_DEPTH * SEGMENT}}}")


def segment(post_id: int) -> str:
    return f"{post_id:016x}"


def reply_path(parent_id: int, parent_path: str | None, reply_id: int) -> str | None:
    """The reply's path under its parent (a root has none stored: its path is its own
    segment); None when the thread would get deeper than MAX_DEPTH."""
    path = (parent_path or segment(parent_id)) + segment(reply_id)
    return path if len(path) <= MAX_DEPTH * SEGMENT else None


def path_of(post_id: int, stored: str | None) -> str:
    """A post's path: stored for replies, its own segment for a root."""
    return stored or segment(post_id)


def ancestor_ids(path: str) -> list[int]:
    """The IDs above the post whose path this is, the root first."""
    ids = [int(path[i : i + SEGMENT], 16) for i in range(0, len(path), SEGMENT)]
    return ids[:-1]


def subtree_end(path: str) -> str:
    """The smallest string above every path under `path` (hex digits sort below 'g')."""
    return path + "g"


def encode_thread_cursor(path: str) -> str:
    return f"t{path}"


def decode_thread_cursor(cursor: str | None) -> str | None:
    if cursor is None:
        return None
    if re.fullmatch(THREAD_CURSOR_PATTERN, cursor) is None:
        raise BadCursor("not a cursor of a thread")
    return cursor[1:]


def reply_reaches(
    reader_id: int, reply_author: int, replied_to: int | None, follows_replied_to: bool
) -> bool:
    """May this reply (by `reply_author`, to a post of `replied_to`) be in the home
    feed of a reader who follows its author? (The module doc's rule.)"""
    if replied_to is None or replied_to == reply_author or reader_id == reply_author:
        return True
    return reader_id == replied_to or follows_replied_to


def reply_recipients(
    followers: Iterable[int], reply_author: int, replied_to: int, also_follow: set[int]
) -> list[int]:
    """Of the reply author's followers, those the reply reaches; `also_follow` are the
    ones among them who follow `replied_to` (read once for the batch)."""
    return [
        follower
        for follower in followers
        if reply_reaches(follower, reply_author, replied_to, follower in also_follow)
    ]
