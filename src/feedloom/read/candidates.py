"""Candidate generation: newest-first post IDs from every source of a home feed.

Sources, merged with a k-way merge:
- the reader's pushed timeline, rebuilt from followees' author timelines if missing;
- the author timelines of the pulled (big) accounts the reader follows;
- the reader's own posts of the last few minutes (read-your-writes, even before the
  fan-out worker ran);
- past the end of the cached timeline, the durable store itself, so scrolling has no
  hard end while older posts exist.
"""

from __future__ import annotations

from datetime import timedelta

from feedloom.backend import Backend
from feedloom.domain.ids import lowest_id_at
from feedloom.domain.timeline import capped, merge_newest_first, older_than
from feedloom.read.author_timelines import recent_post_ids
from feedloom.read.viewer import Reader

PUSHED, REBUILT, PULLED, OWN, ARCHIVE = "pushed", "rebuilt", "pulled", "own", "archive"


async def gather_candidates(
    backend: Backend, reader: Reader, before: int | None, count: int
) -> dict[int, str]:
    """Up to `count` candidate IDs older than `before`, newest first, with the source
    each came from (dicts keep insertion order)."""
    timeline, pushed_label = await _home_timeline(backend, reader, before, count)
    sources: list[tuple[str, list[int]]] = [(pushed_label, timeline)]
    sources.append((PULLED, await _pulled(backend, reader, before, count)))
    sources.append((OWN, await _own_recent(backend, reader, before, count)))
    if len(timeline) < count:
        sources.append((ARCHIVE, await _archive(backend, reader, before, count)))
    labels: dict[int, str] = {}
    for label, ids in reversed(sources):  # earlier sources win the label
        labels.update(dict.fromkeys(ids, label))
    merged = capped(merge_newest_first(ids for _, ids in sources), count)
    return {post_id: labels[post_id] for post_id in merged}


async def _home_timeline(
    backend: Backend, reader: Reader, before: int | None, count: int
) -> tuple[list[int], str]:
    ids = await backend.timelines.read(reader.user_id, before, count)
    if ids is not None:
        backend.metrics.timeline_reads.labels("hit").inc()
        return ids, PUSHED
    backend.metrics.timeline_reads.labels("miss").inc()
    await rebuild_timeline(backend, reader)
    return (await backend.timelines.read(reader.user_id, before, count)) or [], REBUILT


async def rebuild_timeline(backend: Backend, reader: Reader) -> None:
    """K-way merge of every followee's (and the reader's own) author timeline.

    Pulled accounts are included too: those beyond the per-read cap reach the
    reader this way."""
    authors = [*reader.context.following, reader.user_id]
    lists = await recent_post_ids(backend, authors)
    merged = capped(merge_newest_first(lists.values()), backend.settings.timeline_length)
    await backend.timelines.replace(reader.user_id, merged)
    backend.metrics.timeline_rebuilds.inc()


async def _pulled(backend: Backend, reader: Reader, before: int | None, count: int) -> list[int]:
    if not reader.pulled_followees:
        return []
    lists = await recent_post_ids(backend, reader.pulled_followees)
    return capped(
        merge_newest_first(older_than(ids, before)[:count] for ids in lists.values()), count
    )


async def _own_recent(
    backend: Backend, reader: Reader, before: int | None, count: int
) -> list[int]:
    window = timedelta(seconds=backend.settings.feed.own_posts_window_s)
    since = lowest_id_at(backend.clock() - window)
    if before is not None and before <= since:
        return []
    return await backend.posts.post_ids_by_authors([reader.user_id], before, since, count)


async def _archive(backend: Backend, reader: Reader, before: int | None, count: int) -> list[int]:
    """The cached timeline ran out: continue from the durable store, which holds
    everything (keyset on (author_id, id), so this stays an index scan)."""
    authors = [*reader.context.following, reader.user_id]
    return await backend.posts.post_ids_by_authors(authors, before, None, count)
