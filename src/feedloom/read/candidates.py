"""Candidate generation: newest-first post IDs from every source of a home feed.

Sources, merged with a k-way merge:
- the reader's pushed timeline, rebuilt from followees' author timelines if missing;
- the author timelines of the pulled (big) accounts the reader follows;
- the reader's own posts of the last few minutes (read-your-writes, even before the
  fan-out worker ran);
- past the end of a cached timeline that is not complete (see ports.TimelineStore),
  the durable store itself, so scrolling has no hard end while older posts exist.

The first sources of a page need only the reader's ID, so `head` reads them in the
same round trip as the reader's relations (read/home_feed.py); the pulled lists are
asked for the pulled followees this reader had on their last read in this process,
and `gather` fetches only what that guess missed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from feedloom.domain.ids import lowest_id_at
from feedloom.domain.timeline import newest, older_than
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.concurrency import Concurrency
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.metrics import Metrics
from feedloom.ports import Clock, PostArchive, TimelineStore
from feedloom.read.viewer import Reader

PUSHED, REBUILT, PULLED, OWN, ARCHIVE = "pushed", "rebuilt", "pulled", "own", "archive"
PULLED_GUESSES = 100_000  # readers whose pulled followees are remembered for `head`


@dataclass
class Head:
    """The first sources of a reader's page, read before their relations were known."""

    before: int | None
    count: int
    timeline: tuple[list[int], bool] | None  # None: no cached timeline
    own: list[int]
    pulled: dict[int, list[int]] = field(default_factory=dict)

    def fits(self, before: int | None, count: int) -> bool:
        return self.before == before and self.count >= count


class Candidates:
    def __init__(
        self,
        timelines: TimelineStore,
        rebuilder: TimelineRebuilder,
        author_timelines: AuthorTimelines,
        archive: PostArchive,
        metrics: Metrics,
        clock: Clock,
        own_posts_window: timedelta,
        concurrency: Concurrency,
    ) -> None:
        self._timelines, self._rebuilder = timelines, rebuilder
        self._author_timelines, self._archive = author_timelines, archive
        reads = metrics.timeline_reads  # children looked up once, not on every read
        self._hits, self._misses, self._clock = reads.labels("hit"), reads.labels("miss"), clock
        self._own_window, self._concurrency = own_posts_window, concurrency
        self._pulled_guesses: dict[int, list[int]] = {}

    async def head(self, user_id: int, before: int | None, count: int) -> Head:
        timeline, own, pulled = await self._concurrency.three(
            self._timelines.read_page(user_id, before, count),
            self._author_timelines.recent_of(user_id),
            self._author_timelines.recent(self._pulled_guesses.get(user_id, [])),
        )
        return Head(before, count, timeline, own, pulled)

    async def gather(
        self, reader: Reader, before: int | None, count: int, head: Head | None = None
    ) -> dict[int, str]:
        """Up to `count` candidate IDs older than `before`, newest first, with the source
        each came from (dicts keep insertion order)."""
        if head is not None and not head.fits(before, count):
            head = None
        (timeline, complete, pushed_label), pulled, own = await self._concurrency.three(
            self._home_timeline(reader, before, count, head),
            self._pulled(reader, before, count, head),
            self._own_recent(reader, before, count, head),
        )
        sources: list[tuple[str, list[int]]] = [(pushed_label, timeline), (PULLED, pulled)]
        sources.append((OWN, own))
        if len(timeline) < count and not complete:  # beyond the cached timeline
            sources.append((ARCHIVE, await self._archive_ids(reader, before, count)))
        labels: dict[int, str] = {}
        for label, ids in reversed(sources):  # earlier sources win the label
            labels.update(dict.fromkeys(ids, label))
        merged = newest((ids for _, ids in sources), count)
        return {post_id: labels[post_id] for post_id in merged}

    async def _home_timeline(
        self, reader: Reader, before: int | None, count: int, head: Head | None
    ) -> tuple[list[int], bool, str]:
        """IDs, whether the timeline is known complete below them, and their source."""
        if head is not None:
            page = head.timeline
        else:
            page = await self._timelines.read_page(reader.user_id, before, count)
        if page is not None:
            self._hits.inc()
            return page[0][:count], page[1], PUSHED
        self._misses.inc()
        following = reader.context.following
        await self._rebuilder.rebuild(reader.user_id, following, reader.follows_pulled)
        page = await self._timelines.read_page(reader.user_id, before, count)
        return *(page or ([], False)), REBUILT

    async def _pulled(
        self, reader: Reader, before: int | None, count: int, head: Head | None
    ) -> list[int]:
        self._remember_pulled(reader)
        if not reader.pulled_followees:
            return []
        lists = head.pulled if head is not None else {}
        missed = [author for author in reader.pulled_followees if author not in lists]
        if missed:
            lists = {**lists, **await self._author_timelines.recent(missed)}
        chosen = (lists.get(author, []) for author in reader.pulled_followees)
        return newest((older_than(ids, before)[:count] for ids in chosen), count)

    def _remember_pulled(self, reader: Reader) -> None:
        guesses = self._pulled_guesses
        if reader.pulled_followees:
            if len(guesses) >= PULLED_GUESSES:
                guesses.clear()  # rare, and only costs a round trip per reader once
            guesses[reader.user_id] = reader.pulled_followees
        else:
            guesses.pop(reader.user_id, None)

    async def _own_recent(
        self, reader: Reader, before: int | None, count: int, head: Head | None
    ) -> list[int]:
        """From the reader's author timeline, which publishing writes at once."""
        since = lowest_id_at(self._clock() - self._own_window)
        if before is not None and before <= since:
            return []
        if head is not None:
            own = older_than(head.own, before)
        else:
            own = older_than(await self._author_timelines.recent_of(reader.user_id), before)
        return [post_id for post_id in own[:count] if post_id > since]

    async def _archive_ids(self, reader: Reader, before: int | None, count: int) -> list[int]:
        """The cached timeline ran out: continue from the durable store, which holds
        everything (keyset on (author_id, id), so this stays an index scan)."""
        authors = [*reader.context.following, reader.user_id]
        return await self._archive.post_ids_by_authors(authors, before, None, count)
