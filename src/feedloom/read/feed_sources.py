"""Candidate sources of feeds other than home: authors' timelines merged at read time.

A list feed (and an `author:` source) is assembled like the hybrid's pull side
(read/candidates.py `_pulled`): the members' author timelines, read in one batch, merged
newest first and capped. Nothing is written per list, so adding or removing a member
counts on the next read, and a list costs nothing until it is read (docs/FEEDS.md has
the measurement behind choosing pull over push).

An author timeline holds an author's newest posts only: below the newest of the cut
lists' oldest entries ("the horizon") the merge could skip posts, so a page that
reaches past it is read from the durable store instead (an index range per author).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Protocol

from feedloom.domain.timeline import merge_newest_first, newest
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.ports import PostArchive
from feedloom.ports.tags import TagStore
from feedloom.read.viewer import Reader


class CandidateSource(Protocol):
    async def gather(self, reader: Reader, before: int | None, count: int) -> dict[int, str]:
        """Up to `count` IDs older than `before`, newest first, with their source label."""
        ...


class AuthorsSource:
    def __init__(
        self,
        author_timelines: AuthorTimelines,
        archive: PostArchive,
        authors: Sequence[int],
        label: str,
    ) -> None:
        self._author_timelines, self._archive = author_timelines, archive
        self._authors, self._label = list(authors), label

    async def gather(self, reader: Reader, before: int | None, count: int) -> dict[int, str]:
        if not self._authors:
            return {}
        recent = await self._author_timelines.recent(self._authors)
        holds_all = self._author_timelines.holds_all
        horizon = max(
            (ids[-1] for ids in recent.values() if ids and not holds_all(ids)), default=None
        )
        # The k-way merge: a page takes `count` of a hundred lists, no sort of them all.
        merged = list(
            islice(merge_newest_first(_older(i, before, count) for i in recent.values()), count)
        )
        trusted = merged if horizon is None else [i for i in merged if i >= horizon]
        if len(trusted) < count and horizon is not None:
            trusted = await self._archive.post_ids_by_authors(self._authors, before, None, count)
        return dict.fromkeys(trusted, self._label)


class TagSource:
    """A hashtag's live public posts, newest first (the tags' own index: one range)."""

    def __init__(self, tags: TagStore, name: str) -> None:
        self._tags, self._name = tags, name

    async def gather(self, reader: Reader, before: int | None, count: int) -> dict[int, str]:
        found = (await self._tags.tags([self._name])).get(self._name)
        if found is None:
            return {}
        return dict.fromkeys(await self._tags.tag_post_ids(found.id, before, count), "tag")


class MergedSource:
    """Several sources as one, newest first (each post labelled by the first source
    that has it)."""

    def __init__(self, sources: Sequence[CandidateSource]) -> None:
        self._sources = list(sources)

    async def gather(self, reader: Reader, before: int | None, count: int) -> dict[int, str]:
        if len(self._sources) == 1:
            return await self._sources[0].gather(reader, before, count)
        found: list[Mapping[int, str]] = [
            await source.gather(reader, before, count) for source in self._sources
        ]
        labels: dict[int, str] = {}
        for one in reversed(found):
            labels.update(one)
        return {post_id: labels[post_id] for post_id in newest(found, count)}


def _older(ids: Sequence[int], before: int | None, count: int) -> Sequence[int]:
    """The first `count` of a newest-first list strictly older than `before`, found by
    bisection (a list feed reads a hundred such lists a page: no copy of the rest)."""
    start = 0 if before is None else bisect_right(ids, -before, key=lambda post_id: -post_id)
    return ids[start : start + count]
