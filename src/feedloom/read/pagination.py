"""Fill a page: pull candidates in newest-first chunks, drop what the reader may not
see, and over-fetch so a page stays full when items are filtered.

The keyset cursor is the ID of the last item served: the next page asks for IDs
strictly older, so posts arriving meanwhile (newer IDs) can neither repeat nor shift
anything, and a deleted post simply is not there any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from feedloom.backend import Backend
from feedloom.domain.model import Post
from feedloom.domain.visibility import FilterReason
from feedloom.read.hydrate import load_posts

FetchCandidates = Callable[[int | None, int], Awaitable[dict[int, str]]]
Accept = Callable[[Post], FilterReason | None]


@dataclass
class Collected:
    posts: list[Post] = field(default_factory=list)
    sources: dict[int, str] = field(default_factory=dict)
    filtered: Counter[str] = field(default_factory=Counter)
    exhausted: bool = False


def overfetch(missing: int) -> int:
    return missing * 2 + 10


async def collect_visible(
    backend: Backend, fetch: FetchCandidates, accept: Accept, before: int | None, limit: int
) -> Collected:
    page = Collected()
    cursor = before
    while len(page.posts) < limit:
        want = overfetch(limit - len(page.posts))
        candidates = await fetch(cursor, want)
        posts = await load_posts(backend, list(candidates))
        for post_id, source in candidates.items():
            post = posts.get(post_id)
            reason = FilterReason.MISSING if post is None else accept(post)
            if reason is not None:
                page.filtered[reason.value] += 1
                backend.metrics.filtered.labels(reason.value).inc()
                continue
            assert post is not None
            page.posts.append(post)
            page.sources[post_id] = source
            if len(page.posts) == limit:
                return page
        if len(candidates) < want:
            page.exhausted = True
            return page
        cursor = min(candidates)
    return page
