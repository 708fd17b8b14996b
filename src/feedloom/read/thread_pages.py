"""The read-time rule over a list of replies: what a thread page or a reply list keeps.

The store has left out deleted replies and the authors the reader hides (blocked
either way, muted); what is left is checked here like every other page
(domain/visibility.thread_filter: followers-only, held, suspended), a chunk at a time,
over-fetched so that a page stays full in one round trip as a rule.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from feedloom.domain.model import Post
from feedloom.domain.visibility import ViewerContext, thread_filter
from feedloom.lookups.cached_views import Views
from feedloom.read.visible import overfetch

K = TypeVar("K")  # where a chunk ended: the key the next chunk starts after


@dataclass
class Kept(Generic[K]):
    posts: list[Post] = field(default_factory=list)
    more: bool = False  # more replies after the last one kept
    last: K | None = None  # the last one kept's key: where a next page starts after


async def fill(
    views: Views,
    viewer: ViewerContext,
    limit: int,
    start: K | None,
    chunk: Callable[[K | None, int], Awaitable[Sequence[tuple[int, K]]]],
) -> Kept[K]:
    """Up to `limit` replies the viewer may see, from successive chunks (ID, key) of
    the store; `more` when the store holds replies beyond them."""
    kept: Kept[K] = Kept()
    while True:
        want = overfetch(limit - len(kept.posts))
        found = await chunk(start, want)
        posts = await views.posts([post_id for post_id, _ in found])
        for post_id, key in found:
            post = posts.get(post_id)
            if post is None or thread_filter(viewer, post) is not None:
                start = key
                continue
            if len(kept.posts) == limit:
                kept.more = True
                return kept
            kept.posts.append(post)
            start = kept.last = key
        if len(found) < want:
            return kept
