"""Hydration: turn visible posts into feed items with batched, cache-aside lookups.

One call per kind of data per page (authors, counts, liked_by_me, views), never one per
item. Posts and profiles are shared views cached for everyone; liked_by_me is personal,
from the reader's cached recent likes (lookups/likes.py), and so is the comment count
of a reader who blocks or mutes someone: comments hidden from them are not counted for
them (one store query per page, for those readers only).

A page loads its candidates' posts through `views`, which asks, beside them, for what
hydration will need: counts, liked_by_me, and the profiles of the authors already
known (lookups/cached_views.py). `hydrate` then fetches only what that missed.

A repost's entry shows its original (loaded beside it: lookups/cached_views.py): the
original's counts, likes and viewers, "reposted by" the repost's author under the
repost's ID. `reposted_by_me` comes from the reader's record (lookups/reader_state.py).
A quote embeds the quoted post as this reader may see it (domain/visibility.py), or
nothing: the item then says it is unavailable.

Serving a page counts its reader among the distinct viewers of each post it shows, in
`hydrate`, after the read-time filter: a post the reader is not shown is never counted
as viewed by them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from feedloom.domain.model import Counts, FeedItem, Post, UserProfile
from feedloom.domain.visibility import ViewerContext, may_see
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import DisplayedCounts
from feedloom.lookups.likes import Likes
from feedloom.lookups.reader_state import ReaderStates
from feedloom.metrics import Metrics
from feedloom.ports import ViewerSketches


@dataclass
class Loaded:
    """What a page's chunks loaded beside their posts, for hydration."""

    profiles: dict[int, UserProfile] = field(default_factory=dict)
    counts: dict[int, Counts] = field(default_factory=dict)
    liked: set[int] = field(default_factory=set)
    looked_up: set[int] = field(default_factory=set)  # posts whose counts and likes came

    def add(
        self,
        post_ids: Sequence[int],
        profiles: dict[int, UserProfile],
        counts: dict[int, Counts],
        liked: set[int],
    ) -> None:
        self.profiles.update(profiles)
        self.counts.update(counts)
        self.liked |= liked
        self.looked_up.update(post_ids)


class Hydrator:
    def __init__(
        self,
        views: Views,
        counts: DisplayedCounts,
        likes: Likes,
        viewers: ViewerSketches,
        states: ReaderStates,
        metrics: Metrics,
    ) -> None:
        self._views, self._counts, self._likes = views, counts, likes
        self._viewers, self._states = viewers, states
        self._batch = metrics.hydration_batch

    async def views(self, viewer_id: int, post_ids: Sequence[int], into: Loaded) -> dict[int, Post]:
        """The posts' views, and into `into` what hydrating them will need: counts and
        likes of the posts they show (a known repost's original, never the repost)."""
        shown = self._views.authors.shown(post_ids)
        posts, profiles, counts, liked = await asyncio.gather(
            self._views.posts(post_ids),
            self._views.profiles(self._views.authors.known(post_ids)),
            self._counts.get(shown),
            self._likes.liked_among(viewer_id, shown),
        )
        into.add(shown, profiles, counts, liked)
        return posts

    async def hydrate(
        self,
        viewer_id: int,
        posts: Sequence[Post],
        sources: Mapping[int, str],
        loaded: Loaded | None = None,
        hidden_commenters: frozenset[int] = frozenset(),
    ) -> list[FeedItem]:
        """Feed items for the entries the page shows (posts, or reposts with their
        originals); serving them counts the reader among each shown post's viewers."""
        self._batch.observe(len(posts))
        shown = [post.shown for post in posts]
        have, seen, reposted, quoted = await asyncio.gather(
            self._complete(viewer_id, posts, loaded or Loaded()),
            self._viewers.served(viewer_id, [post.id for post in shown]),
            self._states.reposted_among(viewer_id, [post.id for post in shown]),
            self._quoted(viewer_id, shown),
        )
        counted = {post.id: have.counts[post.id] for post in shown if post.id in have.counts}
        counts = await self._counts.seen_by(counted, hidden_commenters)
        items = []
        for entry, post in zip(posts, shown, strict=True):
            if post.author_id not in have.profiles or post.id not in counts:
                continue
            quote = quoted.get(post.quote_of or 0)
            items.append(
                FeedItem(
                    post=post,
                    author=have.profiles[post.author_id],
                    counts=counts[post.id],
                    liked_by_me=post.id in have.liked,
                    source=sources.get(entry.id, "pushed"),
                    views=seen.get(post.id, 0),
                    replied_to=have.profiles.get(post.reply_to_author or 0),
                    reposted_by=have.profiles.get(entry.author_id) if entry is not post else None,
                    repost_id=entry.id if entry is not post else None,
                    reposted_by_me=post.id in reposted,
                    quote=quote[0] if quote else None,
                    quote_author=quote[1] if quote else None,
                )
            )
        return items

    async def _quoted(
        self, viewer_id: int, shown: Sequence[Post]
    ) -> dict[int, tuple[Post, UserProfile]]:
        """The quoted posts this reader may see, with their authors (the others are
        left out: their items say the quote is unavailable)."""
        quoted_ids = [post.quote_of for post in shown if post.quote_of is not None]
        if not quoted_ids:
            return {}
        found, relations = await asyncio.gather(
            self._views.posts(quoted_ids), self._states.relations(viewer_id)
        )
        viewer = ViewerContext(viewer_id, relations.following, relations.blocked, relations.muted)
        visible = {
            post_id: post
            for post_id, post in found.items()
            if post.repost_of is None and may_see(viewer, post) is None
        }
        authors = await self._views.profiles(list({post.author_id for post in visible.values()}))
        return {
            post_id: (post, authors[post.author_id])
            for post_id, post in visible.items()
            if post.author_id in authors
        }

    async def _complete(self, viewer_id: int, posts: Sequence[Post], have: Loaded) -> Loaded:
        """`have`, plus whatever the entries need that it lacks (a repost: its author
        and its original's)."""
        shown = [post.shown for post in posts]
        wanted = {post.author_id for post in posts} | {post.author_id for post in shown}
        wanted |= _replied_to(shown)
        authors = [author for author in wanted if author not in have.profiles]
        post_ids = [post.id for post in shown if post.id not in have.looked_up]
        if not authors and not post_ids:
            return have
        profiles, counts, liked = await asyncio.gather(
            self._views.profiles(authors),
            self._counts.get(post_ids),
            self._likes.liked_among(viewer_id, post_ids),
        )
        have.add(post_ids, profiles, counts, liked)
        return have


def _replied_to(posts: Sequence[Post]) -> set[int]:
    """The authors the replies among these posts answer: their `in_reply_to` names them."""
    return {post.reply_to_author for post in posts if post.reply_to_author is not None}
