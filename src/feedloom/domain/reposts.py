"""Reposts and quotes: which posts may be shared, and which reposts a reader sees.

A repost is a post of its own (its own ID, its reposter as author, no text) that
names its original; it travels through fan-out as an ID like any post, by the
reposter's size. A feed entry for it shows the original, "reposted by" the reposter.

What a reader is shown, beside the rules of every post (domain/visibility.py, applied
to the repost and to its original), is decided here:
- their own posts reposted by others do not come back to them;
- a followee they follow with `reposts: false` brings no reposts;
- no double posts: an original already among the `FALLOFF` timeline entries below a
  repost is not shown again by the repost (Mastodon's reblog falloff), and within one
  scroll an original is shown once. A repost's ID is always above its original's, so
  scrolling down meets the reposts of a post before the post: remembering the
  originals shown through reposts (`ShownOriginals`, carried in the cursor, bounded)
  is enough, and an original whose ID the scroll has passed can be forgotten.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from feedloom.domain.errors import NotShareable
from feedloom.domain.model import Post, Visibility

FALLOFF = 40  # timeline entries below a repost in which its original makes it redundant
CARRIED = 24  # originals a cursor remembers (the nearest: the ones still ahead); fits 512


def check_shareable(post: Post, sharer_id: int, verb: str) -> None:
    """Only public posts travel beyond their author's followers: reposting or quoting
    a followers-only post (anyone's) would show it to people it was not meant for."""
    if post.visibility is not Visibility.PUBLIC:
        whose = "your own" if post.author_id == sharer_id else "someone else's"
        raise NotShareable(f"only public posts can be {verb}: this is {whose} followers-only post")


def repost_seen_by(
    viewer_id: int, reposter_id: int, original_author: int, reposts_off: frozenset[int]
) -> bool:
    """May a repost by `reposter_id` of a post by `original_author` be in the viewer's
    home feed? (The module doc's first two rules; the viewer's own reposts always are.)"""
    if reposter_id == viewer_id:
        return True
    return original_author != viewer_id and reposter_id not in reposts_off


def falls_off(original_id: int, below: Sequence[int]) -> bool:
    """Is the original itself among the `FALLOFF` entries just below the repost?"""
    return original_id in below[:FALLOFF]


class ShownOriginals:
    """The originals one scroll has shown through reposts (the module doc)."""

    def __init__(self, carried: Iterable[int] = ()) -> None:
        self._shown = set(carried)

    def admit(self, entry: Post, below: Sequence[int]) -> bool:
        """Show this entry (a post, or a repost with its original loaded)? A repost is
        remembered when shown; its original, met later, is then left out."""
        if entry.repost_of is None:
            return entry.id not in self._shown
        if entry.repost_of in self._shown or falls_off(entry.repost_of, below):
            return False
        self._shown.add(entry.repost_of)
        return True

    def carry(self, before: int) -> tuple[int, ...]:
        """What the next page must remember: the originals still ahead of a scroll that
        continues below `before` (the nearest `CARRIED` of them)."""
        ahead = sorted((post_id for post_id in self._shown if post_id < before), reverse=True)
        return tuple(ahead[:CARRIED])
