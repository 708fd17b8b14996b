"""Hydration: turn post IDs into feed items with batched, cache-aside lookups.

One call per kind of data per page (posts, authors, counts, liked_by_me), never one
per item. Posts and profiles are shared views cached for everyone; liked_by_me is
personal and always read from the truth.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from feedloom.backend import Backend
from feedloom.domain.model import FeedItem, Post, UserProfile
from feedloom.ports import ViewCache
from feedloom.read.views import dump_post, dump_profile, load_post, load_profile
from feedloom.write.counting import displayed_counts

V = TypeVar("V")


async def load_posts(backend: Backend, post_ids: Sequence[int]) -> dict[int, Post]:
    return await _cache_aside(
        backend, "post", backend.post_cache, post_ids, load_post, dump_post, backend.posts.posts
    )


async def load_profiles(backend: Backend, user_ids: Sequence[int]) -> dict[int, UserProfile]:
    return await _cache_aside(
        backend,
        "user",
        backend.user_cache,
        user_ids,
        load_profile,
        dump_profile,
        backend.accounts.profiles,
    )


async def _cache_aside(
    backend: Backend,
    kind: str,
    cache: ViewCache,
    ids: Sequence[int],
    decode: Callable[[int, bytes], V],
    encode: Callable[[V], bytes],
    fetch: Callable[[Sequence[int]], Awaitable[dict[int, V]]],
) -> dict[int, V]:
    """Views from the cache; misses from the store in one call, then cached."""
    wanted = list(dict.fromkeys(ids))
    cached = await cache.get_many(wanted)
    found = {key: decode(key, data) for key, data in cached.items()}
    missing = [key for key in wanted if key not in found]
    if missing:
        backend.metrics.hydration_misses.labels(kind).inc(len(missing))
        loaded = await fetch(missing)
        await cache.set_many({key: encode(view) for key, view in loaded.items()})
        found.update(loaded)
    return found


async def hydrate(
    backend: Backend, viewer_id: int, posts: Sequence[Post], sources: dict[int, str]
) -> list[FeedItem]:
    post_ids = [post.id for post in posts]
    backend.metrics.hydration_batch.observe(len(post_ids))
    authors = await load_profiles(backend, [post.author_id for post in posts])
    counts = await displayed_counts(
        post_ids, backend.counters, backend.engagement, backend.counter_buffer
    )
    liked = await backend.engagement.liked_among(viewer_id, post_ids)
    return [
        FeedItem(
            post=post,
            author=authors[post.author_id],
            counts=counts[post.id],
            liked_by_me=post.id in liked,
            source=sources.get(post.id, "pushed"),
        )
        for post in posts
        if post.author_id in authors
    ]
