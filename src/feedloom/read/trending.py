"""GET /v1/trending: the most engaged public posts of a window, best first.

Candidates come from the trending store (approximate, see ports/sketches.py); each is
then held to the same read-time rules as any feed item (domain/visibility.py) plus
two of its own: public posts only, none from authors the reader muted. The store is
asked for more than a page so that filtered candidates rarely leave the page short.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from feedloom.domain.errors import InvalidInput
from feedloom.domain.model import FeedItem, Post, Visibility
from feedloom.domain.trending import WINDOWS
from feedloom.domain.visibility import ViewerContext, may_see
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock, TagStore, TrendingStore
from feedloom.read.hydrate import Hydrator
from feedloom.read.viewer import Readers

OVERFETCH = 3


class TrendingPosts:
    def __init__(
        self,
        store: TrendingStore,
        readers: Readers,
        views: Views,
        hydrator: Hydrator,
        clock: Clock,
    ) -> None:
        self._store, self._readers, self._views = store, readers, views
        self._hydrator, self._clock = hydrator, clock

    async def page(self, viewer_id: int, window: str, limit: int) -> list[FeedItem]:
        window_s = WINDOWS.get(window)
        if window_s is None:
            raise InvalidInput(f"window must be one of {', '.join(WINDOWS)}")
        reader = await self._readers.load(viewer_id)
        ranked = await self._store.top(window_s, self._clock(), limit * OVERFETCH + 10)
        posts = await self._views.posts([post_id for post_id, _ in ranked])
        shown = [
            (posts[post_id], score)
            for post_id, score in ranked
            if post_id in posts and _trends_for(reader.context, posts[post_id])
        ][:limit]
        items = await self._hydrator.hydrate(
            viewer_id, [post for post, _ in shown], {post.id: "trending" for post, _ in shown}
        )
        scores = {post.id: score for post, score in shown}
        return [replace(item, score=scores[item.post.id]) for item in items]


def _trends_for(viewer: ViewerContext, post: Post) -> bool:
    return (
        post.visibility is Visibility.PUBLIC
        and may_see(viewer, post) is None
        and post.author_id not in viewer.muted
    )


@dataclass(frozen=True, slots=True)
class TrendingTag:
    name: str
    authors: float  # distinct authors in the window, the previous one decayed
    posts_count: int


class TrendingTags:
    """GET /v1/trending/tags: tags by the distinct authors using them (write/tag_use.py),
    from the same windowed sketches as trending posts."""

    def __init__(self, store: TrendingStore, tags: TagStore, clock: Clock) -> None:
        self._store, self._tags, self._clock = store, tags, clock

    async def page(self, window: str, limit: int) -> list[TrendingTag]:
        window_s = WINDOWS.get(window)
        if window_s is None:
            raise InvalidInput(f"window must be one of {', '.join(WINDOWS)}")
        ranked = await self._store.top(window_s, self._clock(), limit)
        found = await self._tags.tags_by_id([tag_id for tag_id, _ in ranked])
        return [
            TrendingTag(found[tag_id].name, score, found[tag_id].posts_count)
            for tag_id, score in ranked
            if tag_id in found
        ]
