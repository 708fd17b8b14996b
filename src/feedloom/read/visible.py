"""The one read-time filter of every page kind (home chronological, ranked, profile).

Timelines are never trusted: each candidate is checked against what the reader may
see, on every read. `PageFill` adds the over-fetch of a keyset page: candidates come
in newest-first chunks, and a chunk that loses items to the filter is followed by
another, so a page stays full.

The keyset cursor is the ID of the last item served: the next page asks for IDs
strictly older, so posts arriving meanwhile (newer IDs) can neither repeat nor shift
anything, and a deleted post simply is not there any more.

Reposts: a page (and its scroll, through the cursor) shows each original once, and a
repost whose original sits just below it in the candidates is left out
(domain/reposts.py). So that "just below" is known for the last entries of a gather
too, a keyset gather reads `FALLOFF` candidates beyond what it examines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from feedloom.domain.model import Post
from feedloom.domain.reposts import FALLOFF, ShownOriginals
from feedloom.domain.visibility import FilterReason

Accept = Callable[[Post], FilterReason | None]


@dataclass
class Visible:
    posts: list[Post] = field(default_factory=list)
    filtered: Counter[str] = field(default_factory=Counter)


def visible(
    post_ids: Iterable[int],
    loaded: Mapping[int, Post],
    accept: Accept,
    limit: int | None = None,
    shown: ShownOriginals | None = None,
    among: Sequence[int] | None = None,
) -> Visible:
    """The posts that pass `accept`, in the given order, up to `limit`, and how many
    were dropped for which reason (a post not loaded counts as missing). With `shown`,
    an original is kept once (`among`: the candidates the IDs sit in, newest first)."""
    kept, ids = Visible(), list(post_ids)
    below = _Below(among if among is not None else ids)
    for post_id in ids:
        if limit is not None and len(kept.posts) == limit:
            break
        post = loaded.get(post_id)
        reason = FilterReason.MISSING if post is None else accept(post)
        if reason is None and post is not None and shown is not None:
            reason = None if shown.admit(post, below.of(post)) else FilterReason.DUPLICATE
        if reason is not None:
            kept.filtered[reason.value] += 1
        elif post is not None:
            kept.posts.append(post)
    return kept


class _Below:
    """The entries below a repost among the candidates (positions found only when a
    repost asks: a page without reposts pays nothing)."""

    def __init__(self, among: Sequence[int]) -> None:
        self._among = among
        self._position: dict[int, int] | None = None

    def of(self, post: Post) -> Sequence[int]:
        if post.repost_of is None:
            return ()
        if self._position is None:
            self._position = {post_id: i for i, post_id in enumerate(self._among)}
        start = self._position.get(post.id, len(self._among)) + 1
        return self._among[start : start + FALLOFF]


def overfetch(missing: int) -> int:
    return missing * 2 + 10


CHUNK_SLACK = 5


class PageFill:
    """A keyset page being filled: what to ask for next, what was kept.

    Candidates come `want` at a time (over-fetched, so filtered items rarely cost a
    second gather), but their views are loaded in chunks of what the page still misses:
    a page of 20 loads about 25 views, not 50."""

    def __init__(self, before: int | None, limit: int, shown: ShownOriginals | None = None) -> None:
        self.cursor, self.limit = before, limit
        self.kept = Visible()
        self.sources: dict[int, str] = {}
        self.exhausted = False
        self.shown = shown if shown is not None else ShownOriginals()
        self._want = overfetch(limit)
        self._examined: list[int] = []
        self._among: list[int] = []

    @property
    def want(self) -> int:
        """Candidates to gather: those to examine, and `FALLOFF` below them."""
        return self._want + FALLOFF

    @property
    def done(self) -> bool:
        return self.exhausted or self.full

    @property
    def full(self) -> bool:
        return len(self.kept.posts) >= self.limit

    @property
    def missing(self) -> int:
        """Posts the page still lacks."""
        return max(0, self.limit - len(self.kept.posts))

    def chunks(self, candidates: Mapping[int, str]) -> Iterator[list[int]]:
        """Successive slices of the candidates, each as long as the page still misses
        (plus a little), until the page is full; the last `FALLOFF` of a full gather
        are only looked at, below the others."""
        ids, start = list(candidates), 0
        self._among = ids
        self._examined = ids if len(ids) < self.want else ids[: self._want]
        while start < len(self._examined) and not self.full:
            end = start + self.limit - len(self.kept.posts) + CHUNK_SLACK
            yield self._examined[start:end]
            start = end

    def take(
        self,
        candidates: Mapping[int, str],
        chunk: Sequence[int],
        loaded: Mapping[int, Post],
        accept: Accept,
    ) -> None:
        """Filter one chunk of `candidates` (ID -> source, newest first)."""
        missing = self.limit - len(self.kept.posts)
        kept = visible(chunk, loaded, accept, missing, self.shown, self._among)
        self.kept.posts += kept.posts
        self.kept.filtered.update(kept.filtered)
        self.sources.update({post.id: candidates[post.id] for post in kept.posts})

    def advance(self, candidates: Mapping[int, str]) -> None:
        """After a gather's chunks: where the next gather starts, if one is needed."""
        if not self.full:
            self.exhausted = len(candidates) < self.want
            self.cursor = self._examined[-1] if self._examined else self.cursor
            self._want = overfetch(self.limit - len(self.kept.posts))

    def next_cursor(self) -> int | None:
        """The keyset for the next page; None when the candidates ran out."""
        if not self.kept.posts or self.exhausted:
            return None
        return self.kept.posts[-1].id
