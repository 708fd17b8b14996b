"""Hydration: turn visible posts into feed items with batched, cache-aside lookups.

One call per kind of data per page (authors, counts, liked_by_me, views), never one per
item. Serving a page counts its reader among each post's distinct viewers, in the same
call that reads the posts' view counts. Posts and profiles are shared views cached for
everyone; liked_by_me is personal, from the reader's cached recent likes
(lookups/likes.py), and so is the comment count of a reader who blocks or mutes someone:
comments hidden from them are not counted for them (one store query per page, for those
readers only).

A page loads its candidates' posts through `views`, which asks in the same round trip
for everything hydration will need of them: counts, liked_by_me, and the profiles of
the authors already known (lookups/cached_views.py). `hydrate` then only fetches what
that missed (posts this process never saw), so a warm page reads its views in one
round trip, not two.

Counting the reader as a viewer is a write, due for the posts the page finally shows,
which are known only once the chunk's posts are loaded and filtered. A home page that
asks `views` for the chunk's `serving` (the posts it will all but certainly show: their
authors, known from earlier reads, pass the reader's relations) counts those in the
same round trip, so a warm page costs two round trips in all, not three; `hydrate`
counts only what that missed. The price: a post that then fails the filter on its own
flags (deleted, held, author suspended) has the reader counted among its viewers
without being shown to them. Its count is not shown to anyone else either, unless a
held post is released.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from feedloom.domain.model import Counts, FeedItem, Post, UserProfile
from feedloom.domain.visibility import ViewerContext, author_in_feed
from feedloom.lookups.cached_views import Views
from feedloom.lookups.concurrency import Concurrency
from feedloom.lookups.counts import DisplayedCounts
from feedloom.lookups.likes import Likes, RecentLikes
from feedloom.metrics import Metrics
from feedloom.ports import ViewerSketches


@dataclass
class Loaded:
    """What a page's chunks loaded beside their posts, for hydration."""

    profiles: dict[int, UserProfile] = field(default_factory=dict)
    counts: dict[int, Counts] = field(default_factory=dict)
    liked: set[int] = field(default_factory=set)
    looked_up: set[int] = field(default_factory=set)  # posts whose counts and likes came
    seen: dict[int, int] = field(default_factory=dict)  # posts served already: their viewers
    recent_likes: RecentLikes | None = None  # the reader's, if read before the posts

    def add(
        self,
        post_ids: Sequence[int],
        profiles: dict[int, UserProfile],
        counts: dict[int, Counts],
        liked: set[int],
        seen: dict[int, int],
    ) -> None:
        self.seen.update(seen)
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
        metrics: Metrics,
        concurrency: Concurrency,
    ) -> None:
        self._views, self._counts, self._likes = views, counts, likes
        self._viewers = viewers
        self._concurrency = concurrency
        self._batch = metrics.hydration_batch

    async def views(
        self,
        viewer_id: int,
        post_ids: Sequence[int],
        into: Loaded,
        serving: Sequence[int] = (),
    ) -> dict[int, Post]:
        """The posts' views, and into `into` what hydrating them will need; the reader
        is counted among the viewers of `serving` (module doc)."""
        posts, profiles, counts, liked, seen = await self._concurrency.five(
            self._views.posts(post_ids),
            self._views.profiles(self._views.authors.known(post_ids)),
            self._counts.get(post_ids),
            self._likes.liked_among(viewer_id, post_ids, into.recent_likes),
            self._viewers.served(viewer_id, serving),
        )
        into.add(post_ids, profiles, counts, liked, seen)
        return posts

    def likely_in_feed(
        self, viewer: ViewerContext, post_ids: Sequence[int], count: int
    ) -> list[int]:
        """The first `count` of these home-feed candidates whose authors, known from
        earlier reads, pass the viewer's relations: what the page will all but
        certainly show."""
        authors = self._views.authors.of(post_ids)
        likely = [
            post_id
            for post_id in post_ids
            if (author := authors.get(post_id)) is not None and author_in_feed(viewer, author)
        ]
        return likely[:count]

    async def hydrate(
        self,
        viewer_id: int,
        posts: Sequence[Post],
        sources: Mapping[int, str],
        loaded: Loaded | None = None,
        hidden_commenters: frozenset[int] = frozenset(),
    ) -> list[FeedItem]:
        self._batch.observe(len(posts))
        # Serving the page counts its reader as a viewer of each post it shows, unless
        # `views` counted them already (module doc).
        loaded = loaded or Loaded()
        unseen = [post.id for post in posts if post.id not in loaded.seen]
        have, served = await self._concurrency.two(
            self._complete(viewer_id, posts, loaded),
            self._viewers.served(viewer_id, unseen),
        )
        seen = {**have.seen, **served}
        loaded_counts, profiles, liked = have.counts, have.profiles, have.liked
        shown = {post.id: loaded_counts[post.id] for post in posts if post.id in loaded_counts}
        counts = await self._counts.seen_by(shown, hidden_commenters)
        return [
            FeedItem(
                post=post,
                author=profiles[post.author_id],
                counts=counts[post.id],
                liked_by_me=post.id in liked,
                source=sources.get(post.id, "pushed"),
                views=seen.get(post.id, 0),
                replied_to=profiles.get(post.reply_to_author or 0),
            )
            for post in posts
            if post.author_id in profiles
        ]

    async def _complete(self, viewer_id: int, posts: Sequence[Post], have: Loaded) -> Loaded:
        """`have`, plus whatever the posts need that it lacks, in one round trip."""
        wanted = {post.author_id for post in posts} | _replied_to(posts)
        authors = [author for author in wanted if author not in have.profiles]
        post_ids = [post.id for post in posts if post.id not in have.looked_up]
        if not authors and not post_ids:
            return have
        profiles, counts, liked = await self._concurrency.three(
            self._views.profiles(authors),
            self._counts.get(post_ids),
            self._likes.liked_among(viewer_id, post_ids, have.recent_likes),
        )
        have.add(post_ids, profiles, counts, liked, {})
        return have


def _replied_to(posts: Sequence[Post]) -> set[int]:
    """The authors the replies among these posts answer: their `in_reply_to` names them."""
    return {post.reply_to_author for post in posts if post.reply_to_author is not None}
