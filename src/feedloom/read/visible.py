"""The one read-time filter of every page kind (home chronological, ranked, profile).

Timelines are never trusted: each candidate is checked against what the reader may
see, on every read. `PageFill` adds the over-fetch of a keyset page: candidates come
in newest-first chunks, and a chunk that loses items to the filter is followed by
another, so a page stays full.

The keyset cursor is the ID of the last item served: the next page asks for IDs
strictly older, so posts arriving meanwhile (newer IDs) can neither repeat nor shift
anything, and a deleted post simply is not there any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from feedloom.domain.model import Post
from feedloom.domain.visibility import FilterReason

Accept = Callable[[Post], FilterReason | None]


@dataclass
class Visible:
    posts: list[Post] = field(default_factory=list)
    filtered: Counter[str] = field(default_factory=Counter)


def visible(
    post_ids: Iterable[int], loaded: Mapping[int, Post], accept: Accept, limit: int | None = None
) -> Visible:
    """The posts that pass `accept`, in the given order, up to `limit`, and how many
    were dropped for which reason (a post not loaded counts as missing)."""
    kept = Visible()
    for post_id in post_ids:
        if limit is not None and len(kept.posts) == limit:
            break
        post = loaded.get(post_id)
        reason = FilterReason.MISSING if post is None else accept(post)
        if reason is not None:
            kept.filtered[reason.value] += 1
        elif post is not None:
            kept.posts.append(post)
    return kept


def overfetch(missing: int) -> int:
    return missing * 2 + 10


class PageFill:
    """A keyset page being filled: what to ask for next, what was kept."""

    def __init__(self, before: int | None, limit: int) -> None:
        self.cursor, self.limit = before, limit
        self.kept = Visible()
        self.sources: dict[int, str] = {}
        self.exhausted = False
        self.want = overfetch(limit)

    @property
    def done(self) -> bool:
        return self.exhausted or len(self.kept.posts) >= self.limit

    def take(
        self, candidates: Mapping[int, str], loaded: Mapping[int, Post], accept: Accept
    ) -> None:
        """Filter one chunk of `candidates` (ID -> source, newest first, as asked for)."""
        chunk = visible(candidates, loaded, accept, self.limit - len(self.kept.posts))
        self.kept.posts += chunk.posts
        self.kept.filtered.update(chunk.filtered)
        self.sources.update({post.id: candidates[post.id] for post in chunk.posts})
        if len(self.kept.posts) < self.limit:
            self.exhausted = len(candidates) < self.want
            self.cursor = min(candidates) if candidates else self.cursor
            self.want = overfetch(self.limit - len(self.kept.posts))

    def next_cursor(self) -> int | None:
        """The keyset for the next page; None when the candidates ran out."""
        if not self.kept.posts or self.exhausted:
            return None
        return self.kept.posts[-1].id
