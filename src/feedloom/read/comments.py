"""GET /v1/posts/{id}/comments: a post's comments, newest first, keyset-paged.

Comments by accounts the reader blocks, is blocked by or mutes are left out in the
store's query (lookups/access.py), so a page stays full however many are hidden."""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.model import Comment
from feedloom.lookups.access import Access
from feedloom.ports import Engagement


@dataclass(frozen=True, slots=True)
class CommentPage:
    comments: list[Comment]
    next_cursor: str | None


class Comments:
    def __init__(self, access: Access, engagement: Engagement) -> None:
        self._access, self._engagement = access, engagement

    async def page(
        self, viewer_id: int, post_id: int, cursor: str | None, limit: int
    ) -> CommentPage:
        await self._access.visible_post(viewer_id, post_id)
        before = keyset_before(cursor, "not a comments cursor")
        hidden = await self._access.hidden_commenters(viewer_id)
        comments = await self._engagement.comments(post_id, before, limit + 1, hidden)
        more = len(comments) > limit
        comments = comments[:limit]
        next_cursor = encode_cursor(KeysetCursor(comments[-1].id)) if more else None
        return CommentPage(comments, next_cursor)
