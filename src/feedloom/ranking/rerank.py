"""Ranking step, re-rank and filter: reshape an already ranked list without rescoring.

Intended order on the read path: `drop_seen` -> `diversify` -> `pin_own_recent` ->
`interleave`, so the reader's own fresh posts stay on top whatever diversification did
below them, and recommendations from outside the people they follow take fixed slots.
Everything here is generic over the item type and keeps the input order wherever a
rule does not force a change, so the result stays deterministic.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Sequence, Set
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T")


def diversify(ranked: Sequence[T], author_of: Callable[[T], str]) -> list[T]:
    """No two items by the same author next to each other, whenever another choice exists.

    Greedy: each position takes the best remaining item whose author differs from the
    previous one; if every remaining item is by that author, it takes the best remaining.
    Greedy is local, so a long run of one author can still end up together at the tail.

    O(n log a) for a distinct authors: each author's items wait in a queue in input order,
    and a heap holds only each author's best remaining index, so the best item of a
    different author is always the heap's first or second entry.
    """
    queues: dict[str, deque[int]] = {}
    for index, item in enumerate(ranked):
        queues.setdefault(author_of(item), deque()).append(index)

    # Indices are unique, so heap entries never fall back to comparing author ids.
    heap = [(queue[0], author) for author, queue in queues.items()]
    heapq.heapify(heap)

    result: list[T] = []
    previous: str | None = None
    while heap:
        index, author = heapq.heappop(heap)
        if author == previous and heap:
            # Skip over the previous author once; its head goes back for a later position.
            index, author = heapq.heapreplace(heap, (index, author))
        queue = queues[author]
        queue.popleft()
        if queue:
            heapq.heappush(heap, (queue[0], author))
        result.append(ranked[index])
        previous = author
    return result


def pin_own_recent(items: Iterable[T], is_pinned: Callable[[T], bool]) -> list[T]:
    """Move pinned items (the reader's own posts of the last few minutes) to the top.

    A reader who just posted expects to see the post first, whatever its score. Both the
    pinned and the other items keep their relative order, so pins stay newest first as
    given.
    """
    pinned: list[T] = []
    rest: list[T] = []
    for item in items:
        (pinned if is_pinned(item) else rest).append(item)
    return pinned + rest


def drop_seen(items: Iterable[T], seen_ids: Set[str], id_of: Callable[[T], str]) -> list[T]:
    """Leave out items the reader has already been served, keeping the order of the rest."""
    return [item for item in items if id_of(item) not in seen_ids]


def interleave(inside: Sequence[T], outside: Sequence[T], share: float) -> list[T]:
    """`inside` in order, with `outside` items (in their order) in the slots a `share` of
    the list falls on: slot p is outside's when floor((p + 1) * share) passes an integer.
    So any run of n consecutive items holds at most ceil(n * share) outside items, and the
    list ends where `inside` ends: outside items never fill a page on their own.

    The share is made an exact fraction first, so 0.1 gives slots 9, 19, 29, ... exactly.
    """
    rate = Fraction(share).limit_denominator(1_000)
    result: list[T] = []
    taken_inside = taken_outside = 0
    while taken_inside < len(inside):
        slot = len(result)
        if taken_outside < len(outside) and (slot + 1) * rate // 1 > slot * rate // 1:
            result.append(outside[taken_outside])
            taken_outside += 1
        else:
            result.append(inside[taken_inside])
            taken_inside += 1
    return result
