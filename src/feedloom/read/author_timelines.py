"""Author timelines, cache-aside: recent post IDs per author, refilled from the store.

Used three ways: readers pull big accounts' posts, rebuilds merge followees' lists,
and a new follow merges the followee's recent posts into the follower's timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.backend import Backend


async def recent_post_ids(backend: Backend, author_ids: Sequence[int]) -> dict[int, list[int]]:
    found = await backend.author_timelines.read_many(author_ids)
    missing = [author_id for author_id in author_ids if author_id not in found]
    if missing:
        length = backend.settings.author_timeline_length
        loaded = await backend.posts.author_post_ids(missing, None, length)
        for author_id, post_ids in loaded.items():
            await backend.author_timelines.replace(author_id, post_ids)
        found.update(loaded)
    return found
