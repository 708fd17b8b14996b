"""Pure operations on timelines: newest-first lists of post IDs."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import TypeAlias

# A post and the owners of the timelines it goes to. A fan-out batch is a list of runs
# (a post with a page of its author's followers each), not one (owner, post) pair per
# insert: a million inserts would be a million tuples to build, sort and pack.
PostRun: TypeAlias = tuple[int, Sequence[int]]


def in_chunks(runs: Iterable[PostRun], size: int) -> Iterator[list[PostRun]]:
    """The runs in order, a run split where needed so no chunk holds more than `size`
    inserts (its owners are sliced, never copied one by one)."""
    chunk: list[PostRun] = []
    inserts = 0
    for post_id, owner_ids in runs:
        start = 0
        while start < len(owner_ids):
            part = owner_ids[start : start + size - inserts]
            chunk.append((post_id, part))
            start += len(part)
            inserts += len(part)
            if inserts >= size:
                yield chunk
                chunk, inserts = [], 0
    if chunk:
        yield chunk


def distinct_runs(runs: Sequence[PostRun]) -> Sequence[PostRun]:
    """The runs with each (post, owner) pair once, given that a run's owners are
    distinct (a follower list): runs of one post (a redelivered event repeats its post
    in a batch) merged."""
    if len({post_id for post_id, _ in runs}) == len(runs):
        return runs
    owners: dict[int, dict[int, None]] = {}
    for post_id, owner_ids in runs:
        owners.setdefault(post_id, {}).update(dict.fromkeys(owner_ids))
    return [(post_id, list(owned)) for post_id, owned in owners.items()]


def merge_newest_first(sources: Iterable[Iterable[int]]) -> Iterator[int]:
    """K-way merge of newest-first ID lists into one newest-first stream without
    duplicates (a post can sit in several sources: pushed and own, for instance)."""
    last: int | None = None
    for post_id in heapq.merge(*sources, reverse=True):
        if post_id != last:
            yield post_id
            last = post_id


def newest(sources: Iterable[Iterable[int]], count: int) -> list[int]:
    """The `count` newest distinct IDs of several newest-first lists. A read merges a
    few hundred IDs at most: one C-level sort beats a Python-level k-way merge there."""
    return sorted(set(chain.from_iterable(sources)), reverse=True)[:count]


def older_than(ids: Sequence[int], before: int | None) -> list[int]:
    """The suffix of a newest-first list strictly older than `before`."""
    if before is None:
        return list(ids)
    return [post_id for post_id in ids if post_id < before]


def capped(ids: Iterable[int], length: int) -> list[int]:
    """The newest `length` IDs of a newest-first stream, de-duplicated."""
    return list(_take(merge_newest_first([ids]), length))


def _take(stream: Iterator[int], count: int) -> Iterator[int]:
    for index, item in enumerate(stream):
        if index >= count:
            return
        yield item


# The oldest possible entry of a home timeline, meaning "nothing older exists": a
# rebuild that saw every post of every followee ends the timeline with it, so a short
# timeline is known complete and scrolling past it needs no durable-store query. It is
# the last ID of the Snowflake epoch's first millisecond (2024-01-01T00:00:00.000Z):
# older than any post. Trimming at the cap drops it first, exactly when the timeline
# stops being complete.
END_OF_FEED = (1 << 22) - 1


def split_end(ids: list[int]) -> tuple[list[int], bool]:
    """The real IDs of a timeline read, and whether it reached END_OF_FEED."""
    if ids and ids[-1] == END_OF_FEED:
        return ids[:-1], True
    return ids, False
