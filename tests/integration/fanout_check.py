"""Checking a fan-out run's promise from outside: every acknowledged post is in the
store and exactly once in each of its author's followers' timelines.

What is still in flight is read first, outbox before queue, and the timelines after:
an event gone from both by then had its fan-out finished (an entry is acknowledged
only after its handling, and the relay publishes before it commits the outbox delete),
so a post missing from a timeline read later is lost, not late. Read the other way
round, a fan-out that finishes between the two reads makes an in-flight post look lost
while the queue looks drained.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from feedloom.bootstrap import Feedloom

CHECK_EVERY_S = 1.0


async def in_flight(feedloom: Feedloom) -> dict[str, int]:
    """Events not yet handled: in the outbox, or on the queue (unread or unacked)."""
    outbox = await feedloom.stores.outbox.pending()  # first: the relay publishes before it commits
    return {"outbox": outbox, **await feedloom.queue.lag()}


async def unfinished(
    feedloom: Feedloom, acknowledged: dict[int, int], followers: dict[int, set[int]]
) -> list[str]:
    """What still breaks the promise: events not yet handled, posts missing from the
    store, and posts not exactly once in a follower's timeline."""
    pending = await in_flight(feedloom)
    problems = [f"events not yet handled: {pending}"] if any(pending.values()) else []
    stored = await feedloom.stores.posts.posts(list(acknowledged))
    problems += [
        f"post {post_id} is not in the store" for post_id in acknowledged if post_id not in stored
    ]
    length = feedloom.settings.timeline_length
    timelines = {
        user_id: Counter(await feedloom.caches.timelines.read(user_id, None, length) or [])
        for user_id in {fan for author in set(acknowledged.values()) for fan in followers[author]}
    }
    for post_id, author_id in acknowledged.items():
        for follower in followers[author_id]:
            if (seen := timelines[follower][post_id]) != 1:
                problems.append(f"post {post_id} is {seen}x in follower {follower}'s timeline")
    return problems


async def wait_until_done(
    feedloom: Feedloom,
    acknowledged: dict[int, int],
    followers: dict[int, set[int]],
    *,
    killed_at: float,
    last_acknowledged: float,
    bound_s: float,
) -> list[str]:
    """Check until nothing is left or the bound has passed since the kill or since the
    last acknowledgment, whichever came later: traffic may go on long after the kill,
    and a post acknowledged a moment ago still has to be relayed and fanned out."""
    deadline = max(killed_at, last_acknowledged) + bound_s
    while problems := await unfinished(feedloom, acknowledged, followers):
        if time.monotonic() > deadline:
            return problems
        await asyncio.sleep(CHECK_EVERY_S)
    now = time.monotonic()
    print(
        f"all fan-out done {now - killed_at:.1f} s after the kill, "
        f"{now - last_acknowledged:.1f} s after the last acknowledgment"
    )
    return problems
