"""May this reader see this post? Pure predicates over a ViewerContext.

Beside what the reader may see, what they chose not to: muted words hide a post in
every feed and thread (never the reader's own), the members of an exclusive list leave
the home feed, and a saved feed's filters (domain/feed_definitions.py) apply to it.

The viewer's relations are loaded once per page; every candidate is then filtered in
memory. Timelines are never trusted: a deleted post, a blocked or muted author, an
unfollowed account, a suspended (or deleted) account, a post held for moderation
(its author still sees it) or a followers-only post the reader
may not see is dropped here, at read time, on the very next read. The same flag keeps
a suspended or deleted account out of lists of people (read/people.py); its replies
(comments) the store leaves out (adapters/sql/threads.py), so a reply page stays full.
A reply to someone else reaches a home feed only under the reply rule
(domain/threads.py), checked here again so an unfollow counts on the next read.
A public post of an account the reader does not follow belongs in the home feed when it
carries a tag the reader follows (`followed_tag`): the feed pulls such posts at read
time (read/candidates.py), and unfollowing the tag takes them out on the next read.
A repost passes if the repost itself and its original (loaded beside it) both pass,
and under the repost rules of domain/reposts.py: unreposting, deleting the original
or a block of either author counts on the next read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from feedloom.domain.feed_definitions import FeedFilters, mentions_muted
from feedloom.domain.model import Post, Visibility
from feedloom.domain.reposts import repost_seen_by
from feedloom.domain.threads import reply_reaches


class FilterReason(StrEnum):
    DELETED = "deleted"
    SUSPENDED = "suspended"
    HELD = "held"
    MISSING = "missing"
    BLOCKED = "blocked"
    MUTED = "muted"
    UNFOLLOWED = "unfollowed"
    PRIVATE = "private"
    REPLY = "reply"  # a reply to someone the reader does not follow
    REPOST = "repost"  # of the reader's own post, or by a followee whose reposts are off
    DUPLICATE = "duplicate"  # an original this scroll shows already (domain/reposts.py)
    MUTED_WORD = "muted_word"  # has a word the reader muted (everywhere but their own posts)
    LISTED = "listed"  # its author is on an exclusive list of the reader's: not on home
    NO_MEDIA = "no_media"  # a media-only feed's post without media


@dataclass(frozen=True, slots=True)
class ViewerContext:
    viewer_id: int
    following: frozenset[int]
    blocked: frozenset[int]  # blocked by the viewer or blocking the viewer
    muted: frozenset[int]
    reposts_off: frozenset[int] = frozenset()  # followed without their reposts
    muted_words: re.Pattern[str] | None = None  # the reader's muted words, as one pattern
    # Members of the reader's exclusive lists: their posts leave the home feed.
    left_home: frozenset[int] = frozenset()
    filters: FeedFilters | None = None  # a saved feed's or a list's own filters
    also_from: frozenset[int] = frozenset()  # unfollowed authors a saved feed reads too
    anyone: bool = False  # a saved feed with a tag source: any author's posts may pass
    tags: frozenset[str] = frozenset()  # followed tags (names)

    def follows(self, author_id: int) -> bool:
        return author_id == self.viewer_id or author_id in self.following


def may_see(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if the viewer may see the post anywhere (profile pages included); a repost
    only with its original (loaded beside it: not loaded is missing)."""
    reason = _may_see_one(viewer, post)
    if reason is None and post.repost_of is not None:
        if post.original is None:
            return FilterReason.MISSING
        return _may_see_one(viewer, post.original)
    return reason


def _may_see_one(viewer: ViewerContext, post: Post) -> FilterReason | None:
    if post.deleted:
        return FilterReason.DELETED
    if post.author_suspended:
        return FilterReason.SUSPENDED
    if post.author_id == viewer.viewer_id:
        return None
    if post.held:
        return FilterReason.HELD  # waiting for a moderator: its author alone sees it
    if post.author_id in viewer.blocked:
        return FilterReason.BLOCKED
    if post.visibility is Visibility.FOLLOWERS and post.author_id not in viewer.following:
        return FilterReason.PRIVATE
    return None


def feed_filter(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if the post belongs in the viewer's home feed."""
    reason = may_see(viewer, post)
    if reason is not None:
        return reason
    if post.author_id in viewer.muted:
        return FilterReason.MUTED
    followed = viewer.anyone or viewer.follows(post.author_id) or post.author_id in viewer.also_from
    if not followed and followed_tag(viewer, post) is None:
        return FilterReason.UNFOLLOWED
    original = post.original
    if original is not None:
        if original.author_id in viewer.muted:
            return FilterReason.MUTED
        if not repost_seen_by(
            viewer.viewer_id, post.author_id, original.author_id, viewer.reposts_off
        ):
            return FilterReason.REPOST
    if post.replies_to_other and not reply_reaches(
        viewer.viewer_id,
        post.author_id,
        post.reply_to_author,
        post.reply_to_author in viewer.following,
    ):
        return FilterReason.REPLY
    if post.author_id in viewer.left_home and post.author_id != viewer.viewer_id:
        return FilterReason.LISTED
    return _chosen(viewer, post)


def _chosen(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """What the reader chose not to see: muted words, a feed's own filters."""
    if post.author_id != viewer.viewer_id and mentions_muted(viewer.muted_words, post):
        return FilterReason.MUTED_WORD
    if viewer.filters is not None and (reason := viewer.filters.rejects(post)) is not None:
        return FilterReason(reason)
    return None


def profile_filter(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if the post belongs on a profile page the viewer reads: what they may see,
    less what has a word they muted."""
    return may_see(viewer, post) or _chosen(viewer, post)


def out_of_network_filter(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if a post from outside the people the viewer follows may be recommended in
    their ranked feed: public, by someone they neither follow, block, are blocked by,
    nor mute, not a repost (its original is what would be recommended), and without a
    word they muted."""
    reason = may_see(viewer, post)
    if reason is not None:
        return reason
    if post.author_id in viewer.muted:
        return FilterReason.MUTED
    if viewer.follows(post.author_id) or post.repost_of is not None:
        return FilterReason.DUPLICATE  # in the home feed already, or stands for its original
    if post.visibility is not Visibility.PUBLIC:
        return FilterReason.PRIVATE
    return _chosen(viewer, post)


def followed_tag(viewer: ViewerContext, post: Post) -> str | None:
    """The first tag of a public post (not a repost) that the viewer follows, if any."""
    if not viewer.tags or post.repost_of is not None or post.visibility is not Visibility.PUBLIC:
        return None
    return next((tag for tag in post.tags if tag in viewer.tags), None)


def public_filter(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if the post belongs on a public page of posts (a tag's page): public, one
    the viewer may see, not by an account the viewer mutes."""
    reason = may_see(viewer, post)
    if reason is not None:
        return reason
    if post.visibility is not Visibility.PUBLIC:
        return FilterReason.PRIVATE
    if post.author_id in viewer.muted and post.author_id != viewer.viewer_id:
        return FilterReason.MUTED
    return None


def thread_filter(viewer: ViewerContext, post: Post) -> FilterReason | None:
    """None if the post belongs in a thread the viewer reads (context, comments): what
    they may see, less the muted."""
    reason = may_see(viewer, post)
    if reason is None and post.author_id in viewer.muted and post.author_id != viewer.viewer_id:
        return FilterReason.MUTED
    return reason or _chosen(viewer, post)


def author_in_feed(viewer: ViewerContext, author_id: int) -> bool:
    """What `feed_filter` decides from the author alone: would a live, unheld post of
    theirs be in this viewer's home feed?"""
    if author_id in viewer.muted:
        return False
    if author_id == viewer.viewer_id:
        return True
    return author_id in viewer.following and author_id not in viewer.blocked


def hidden_commenters(viewer: ViewerContext) -> frozenset[int]:
    """Whose comments the viewer is not shown: blocked either way, or muted."""
    return (viewer.blocked | viewer.muted) - {viewer.viewer_id}
