"""GET /v1/posts/{id}/context: a post's thread around it.

Ancestors come from the post's thread path (its IDs, root first: one batched views
read); descendants are one keyset range of the path index in depth-first order, with
each post's replies oldest first, paged by the path of the last one served, so a
thread of any size pages in the time of a page. Every item passes the thread's
read-time rule (read/thread_pages.py). Ancestors are sent with the first page only.
"""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.model import FeedItem, Post
from feedloom.domain.threads import ancestor_ids, decode_thread_cursor, encode_thread_cursor
from feedloom.domain.visibility import ViewerContext, hidden_commenters, thread_filter
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.ports import ThreadStore
from feedloom.read.hydrate import Hydrator
from feedloom.read.thread_pages import fill

CONTEXT = "context"


@dataclass(frozen=True, slots=True)
class ContextPage:
    ancestors: list[FeedItem]
    descendants: list[FeedItem]
    next_cursor: str | None


class Context:
    def __init__(
        self, access: Access, threads: ThreadStore, views: Views, hydrator: Hydrator
    ) -> None:
        self._access, self._threads, self._views = access, threads, views
        self._hydrator = hydrator

    async def page(
        self, viewer_id: int, post_id: int, cursor: str | None, limit: int
    ) -> ContextPage:
        await self._access.visible_post(viewer_id, post_id)
        after = decode_thread_cursor(cursor)
        viewer = await self._access.thread_viewer(viewer_id)
        hidden = hidden_commenters(viewer)
        path = await self._threads.thread_path(post_id) or ""
        # The descendants lie above `path` (and below its subtree's end, where a cursor
        # past them finds nothing): a cursor below starts from the first of them.
        after = max(after, path) if after is not None else None

        async def chunk(start: str | None, want: int) -> list[tuple[int, str]]:
            return await self._threads.descendants(path, start, want, hidden)

        kept = await fill(self._views, viewer, limit, after, chunk)
        ancestors = [] if cursor is not None else await self._ancestors(viewer, path)
        items = await self._hydrator.hydrate(
            viewer_id,
            ancestors + kept.posts,
            dict.fromkeys([p.id for p in ancestors + kept.posts], CONTEXT),
            hidden_commenters=hidden,
        )
        shown = {item.post.id: item for item in items}
        return ContextPage(
            [shown[p.id] for p in ancestors if p.id in shown],
            [shown[p.id] for p in kept.posts if p.id in shown],
            encode_thread_cursor(kept.last) if kept.more and kept.last else None,
        )

    async def _ancestors(self, viewer: ViewerContext, path: str) -> list[Post]:
        ids = ancestor_ids(path)
        if not ids:
            return []
        posts = await self._views.posts(ids)
        return [
            post
            for post_id in ids
            if (post := posts.get(post_id)) is not None and thread_filter(viewer, post) is None
        ]
