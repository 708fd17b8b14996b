"""Hydration: turn visible posts into feed items with batched, cache-aside lookups.

One call per kind of data per page (authors, counts, liked_by_me), never one per item.
Posts and profiles are shared views cached for everyone; liked_by_me is personal, from
the reader's cached recent likes (lookups/likes.py), and so is the comment count of a
reader who blocks or mutes someone (their comments are not counted for that reader).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from feedloom.domain.model import Counts, FeedItem, Post
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.concurrency import Concurrency
from feedloom.lookups.counts import DisplayedCounts
from feedloom.lookups.likes import Likes
from feedloom.metrics import Metrics


class Hydrator:
    def __init__(
        self,
        views: Views,
        access: Access,
        counts: DisplayedCounts,
        likes: Likes,
        metrics: Metrics,
        concurrency: Concurrency,
    ) -> None:
        self._views, self._access = views, access
        self._counts, self._likes = counts, likes
        self._concurrency = concurrency
        self._batch = metrics.hydration_batch

    async def hydrate(
        self, viewer_id: int, posts: Sequence[Post], sources: Mapping[int, str]
    ) -> list[FeedItem]:
        post_ids = [post.id for post in posts]
        self._batch.observe(len(post_ids))
        authors, counts, liked = await self._concurrency.three(
            self._views.profiles([post.author_id for post in posts]),
            self._counts_seen_by(viewer_id, post_ids),
            self._likes.liked_among(viewer_id, post_ids),
        )
        return [
            FeedItem(
                post=post,
                author=authors[post.author_id],
                counts=counts[post.id],
                liked_by_me=post.id in liked,
                source=sources.get(post.id, "pushed"),
            )
            for post in posts
            if post.author_id in authors
        ]

    async def _counts_seen_by(self, viewer_id: int, post_ids: list[int]) -> dict[int, Counts]:
        hidden = await self._access.hidden_commenters(viewer_id)
        return await self._counts.seen_by(post_ids, hidden)
