"""GET /v1/posts/{id}/comments: a post's direct replies, newest first, keyset-paged.

A comment is a reply (write/publish_post.py); this is the reply list in the comments'
shape. Replies the reader may not see are left out (read/thread_pages.py), so a page
stays full however many are hidden."""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.model import Comment
from feedloom.domain.visibility import hidden_commenters
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.ports import ThreadStore
from feedloom.read.thread_pages import fill


@dataclass(frozen=True, slots=True)
class CommentPage:
    comments: list[Comment]
    next_cursor: str | None


class Comments:
    def __init__(self, access: Access, threads: ThreadStore, views: Views) -> None:
        self._access, self._threads, self._views = access, threads, views

    async def page(
        self, viewer_id: int, post_id: int, cursor: str | None, limit: int
    ) -> CommentPage:
        await self._access.visible_post(viewer_id, post_id)
        before = keyset_before(cursor, "not a comments cursor")
        viewer = await self._access.thread_viewer(viewer_id)
        hidden = hidden_commenters(viewer)

        async def chunk(after: int | None, want: int) -> list[tuple[int, int]]:
            ids = await self._threads.reply_ids(post_id, after, want, hidden)
            return [(reply_id, reply_id) for reply_id in ids]

        kept = await fill(self._views, viewer, limit, before, chunk)
        comments = [Comment.of(post) for post in kept.posts]
        next_cursor = encode_cursor(KeysetCursor(comments[-1].id)) if kept.more else None
        return CommentPage(comments, next_cursor)
