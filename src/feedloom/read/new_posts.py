"""GET /v1/feed/new: how many posts above `since` the reader's chronological top page
would show, and the newest one's ID (the "N new posts" button).

The same pipeline as a top page, cut short: viewer → candidates → visible, with the
same read-time filters, and no hydration. Everything comes from the caches on a warm
read (cached relations, the pushed timeline, author timelines, post views), so a
client may poll this often. The count stops at `cap`: a button says "50+" anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.visibility import feed_filter
from feedloom.lookups.cached_views import Views
from feedloom.read.candidates import Candidates
from feedloom.read.viewer import Readers
from feedloom.read.visible import visible


@dataclass(frozen=True, slots=True)
class NewPostCount:
    count: int
    newest_id: int | None
    capped: bool  # there may be more than `count`


class NewPosts:
    def __init__(self, readers: Readers, candidates: Candidates, views: Views, cap: int) -> None:
        self._readers, self._candidates, self._views = readers, candidates, views
        self.cap = cap

    async def since(self, user_id: int, since: int) -> NewPostCount:
        reader = await self._readers.load(user_id)
        candidates = await self._candidates.gather(reader, None, self.cap)
        newer = [post_id for post_id in candidates if post_id > since]
        loaded = await self._views.posts(newer)
        kept = visible(newer, loaded, lambda post: feed_filter(reader.context, post))
        newest = kept.posts[0].id if kept.posts else None
        return NewPostCount(len(kept.posts), newest, capped=len(newer) >= self.cap)
