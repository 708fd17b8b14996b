"""Candidate generation: newest-first post IDs from every source of a home feed.

Sources, merged with a k-way merge:
- the reader's pushed timeline, rebuilt from followees' author timelines if missing;
- the author timelines of the pulled (big) accounts the reader follows;
- the public posts with the tags the reader follows (newest first, at most
  `tag_cap` of them per read, from the tags' cached lists: lookups/tag_timelines.py),
  labelled with the tag that brought them; a post already there from another source
  keeps that one;
- the reader's own posts of the last few minutes (read-your-writes, even before the
  fan-out worker ran);
- past the end of a cached timeline that is not complete (see ports.TimelineStore),
  the durable store itself, so scrolling has no hard end while older posts exist.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from feedloom.domain.ids import lowest_id_at
from feedloom.domain.model import TAG_SOURCE
from feedloom.domain.timeline import newest, older_than
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.metrics import Metrics
from feedloom.ports import Clock, PostArchive, TimelineStore
from feedloom.ports.tags import TaggedPosts
from feedloom.read.viewer import Reader

PUSHED, REBUILT, PULLED, OWN, ARCHIVE = "pushed", "rebuilt", "pulled", "own", "archive"


class Candidates:
    def __init__(
        self,
        timelines: TimelineStore,
        rebuilder: TimelineRebuilder,
        author_timelines: AuthorTimelines,
        archive: PostArchive,
        tags: TaggedPosts,
        metrics: Metrics,
        clock: Clock,
        own_posts_window: timedelta,
        tag_cap: int,
    ) -> None:
        self._tags, self._tag_cap = tags, tag_cap
        self._timelines, self._rebuilder = timelines, rebuilder
        self._author_timelines, self._archive = author_timelines, archive
        reads = metrics.timeline_reads  # children looked up once, not on every read
        self._hits, self._misses, self._clock = reads.labels("hit"), reads.labels("miss"), clock
        self._own_window = own_posts_window

    async def gather(self, reader: Reader, before: int | None, count: int) -> dict[int, str]:
        """Up to `count` candidate IDs older than `before`, newest first, with the source
        each came from (dicts keep insertion order)."""
        (timeline, complete, pushed_label), pulled, own, tagged = await asyncio.gather(
            self._home_timeline(reader, before, count),
            self._pulled(reader, before, count),
            self._own_recent(reader, before, count),
            self._tagged(reader, before, count),
        )
        sources: list[tuple[str, list[int]]] = [(pushed_label, timeline), (PULLED, pulled)]
        sources.append((OWN, own))
        sources += tagged
        if len(timeline) < count and not complete:  # beyond the cached timeline
            sources.append((ARCHIVE, await self._archive_ids(reader, before, count)))
        labels: dict[int, str] = {}
        for label, ids in reversed(sources):  # earlier sources win the label
            labels.update(dict.fromkeys(ids, label))
        merged = newest((ids for _, ids in sources), count)
        return {post_id: labels[post_id] for post_id in merged}

    async def _home_timeline(
        self, reader: Reader, before: int | None, count: int
    ) -> tuple[list[int], bool, str]:
        """IDs, whether the timeline is known complete below them, and their source."""
        page = await self._timelines.read_page(reader.user_id, before, count)
        if page is not None:
            self._hits.inc()
            return page[0][:count], page[1], PUSHED
        self._misses.inc()
        following = reader.context.following
        await self._rebuilder.rebuild(reader.user_id, following, reader.follows_pulled)
        page = await self._timelines.read_page(reader.user_id, before, count)
        return *(page or ([], False)), REBUILT

    async def _pulled(self, reader: Reader, before: int | None, count: int) -> list[int]:
        if not reader.pulled_followees:
            return []
        lists = await self._author_timelines.recent(reader.pulled_followees)
        chosen = (lists.get(author, []) for author in reader.pulled_followees)
        return newest((older_than(ids, before)[:count] for ids in chosen), count)

    async def _tagged(
        self, reader: Reader, before: int | None, count: int
    ) -> list[tuple[str, list[int]]]:
        """Posts of the followed tags, one source per tag (its label names the tag)."""
        if not reader.tags or not self._tag_cap:
            return []
        found = await self._tags.tagged_post_ids(
            list(reader.tags), before, min(count, self._tag_cap)
        )
        by_tag: dict[int, list[int]] = {}
        for post_id, tag_id in found:
            by_tag.setdefault(tag_id, []).append(post_id)
        return [(TAG_SOURCE + reader.tags[tag_id], ids) for tag_id, ids in by_tag.items()]

    async def _own_recent(self, reader: Reader, before: int | None, count: int) -> list[int]:
        """From the reader's author timeline, which publishing writes at once."""
        since = lowest_id_at(self._clock() - self._own_window)
        if before is not None and before <= since:
            return []
        own = older_than(await self._author_timelines.recent_of(reader.user_id), before)
        return [post_id for post_id in own[:count] if post_id > since]

    async def _archive_ids(self, reader: Reader, before: int | None, count: int) -> list[int]:
        """The cached timeline ran out: continue from the durable store, which holds
        everything (keyset on (author_id, id), so this stays an index scan)."""
        authors = [*reader.context.following, reader.user_id]
        return await self._archive.post_ids_by_authors(authors, before, None, count)
