"""Hydration: turn visible posts into feed items with batched, cache-aside lookups.

One call per kind of data per page (authors, counts, liked_by_me, views), never one per
item. Serving a page counts its reader among each post's distinct viewers, in the same
call that reads the posts' view counts.
Posts and profiles are shared views cached for everyone; liked_by_me is personal, from
the reader's cached recent likes (lookups/likes.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from feedloom.domain.model import FeedItem, Post
from feedloom.lookups.cached_views import Views
from feedloom.lookups.concurrency import Concurrency
from feedloom.lookups.counts import DisplayedCounts
from feedloom.lookups.likes import Likes
from feedloom.metrics import Metrics
from feedloom.ports import ViewerSketches


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

    async def hydrate(
        self, viewer_id: int, posts: Sequence[Post], sources: Mapping[int, str]
    ) -> list[FeedItem]:
        post_ids = [post.id for post in posts]
        self._batch.observe(len(post_ids))
        authors, counts, liked, seen = await self._concurrency.four(
            self._views.profiles([post.author_id for post in posts]),
            self._counts.get(post_ids),
            self._likes.liked_among(viewer_id, post_ids),
            self._viewers.served(viewer_id, post_ids),
        )
        return [
            FeedItem(
                post=post,
                author=authors[post.author_id],
                counts=counts[post.id],
                liked_by_me=post.id in liked,
                source=sources.get(post.id, "pushed"),
                views=seen.get(post.id, 0),
            )
            for post in posts
            if post.author_id in authors
        ]
