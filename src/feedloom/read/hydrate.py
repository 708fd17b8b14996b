"""Hydration: turn post IDs into feed items with batched, cache-aside lookups.

One call per kind of data per page (posts, authors, counts, liked_by_me), never one
per item. Posts and profiles are shared views cached for everyone; liked_by_me is
personal and always read from the truth.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.backend import Backend
from feedloom.domain.model import FeedItem, Post, UserProfile
from feedloom.read.views import dump_post, dump_profile, load_post, load_profile
from feedloom.write.counting import displayed_counts


async def load_posts(backend: Backend, post_ids: Sequence[int]) -> dict[int, Post]:
    cached = await backend.post_cache.get_many(post_ids)
    found = {post_id: load_post(post_id, data) for post_id, data in cached.items()}
    missing = [post_id for post_id in post_ids if post_id not in found]
    if missing:
        backend.metrics.hydration_misses.labels("post").inc(len(missing))
        loaded = await backend.posts.posts(missing)
        await backend.post_cache.set_many({pid: dump_post(post) for pid, post in loaded.items()})
        found.update(loaded)
    return found


async def load_profiles(backend: Backend, user_ids: Sequence[int]) -> dict[int, UserProfile]:
    wanted = list(dict.fromkeys(user_ids))
    cached = await backend.user_cache.get_many(wanted)
    found = {user_id: load_profile(user_id, data) for user_id, data in cached.items()}
    missing = [user_id for user_id in wanted if user_id not in found]
    if missing:
        backend.metrics.hydration_misses.labels("user").inc(len(missing))
        loaded = await backend.accounts.profiles(missing)
        await backend.user_cache.set_many({uid: dump_profile(p) for uid, p in loaded.items()})
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
