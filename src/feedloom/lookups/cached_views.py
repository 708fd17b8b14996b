"""Post and profile views, cache-aside: one batched cache call, misses from the store
in one call, then cached. Never one call per item."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from feedloom.domain.model import Post, UserProfile
from feedloom.lookups.views import dump_post, dump_profile, load_post, load_profile
from feedloom.metrics import Metrics
from feedloom.ports import PostStore, ProfileStore, ViewCache

V = TypeVar("V")


class Views:
    def __init__(
        self,
        post_cache: ViewCache,
        user_cache: ViewCache,
        posts: PostStore,
        profiles: ProfileStore,
        metrics: Metrics,
    ) -> None:
        self._post_cache, self._user_cache = post_cache, user_cache
        self._posts, self._profiles = posts, profiles
        self._misses = metrics.hydration_misses

    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]:
        return await self._cache_aside(
            "post", self._post_cache, post_ids, load_post, dump_post, self._posts.posts
        )

    async def post(self, post_id: int) -> Post | None:
        return (await self.posts([post_id])).get(post_id)

    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]:
        return await self._cache_aside(
            "user",
            self._user_cache,
            user_ids,
            load_profile,
            dump_profile,
            self._profiles.profiles,
        )

    async def forget_posts(self, post_ids: Sequence[int]) -> None:
        await self._post_cache.delete_many(post_ids)

    async def forget_profiles(self, user_ids: Sequence[int]) -> None:
        await self._user_cache.delete_many(user_ids)

    async def _cache_aside(
        self,
        kind: str,
        cache: ViewCache,
        ids: Sequence[int],
        decode: Callable[[int, bytes], V],
        encode: Callable[[V], bytes],
        fetch: Callable[[Sequence[int]], Awaitable[dict[int, V]]],
    ) -> dict[int, V]:
        wanted = list(dict.fromkeys(ids))
        cached = await cache.get_many(wanted)
        found = {key: decode(key, data) for key, data in cached.items()}
        missing = [key for key in wanted if key not in found]
        if missing:
            self._misses.labels(kind).inc(len(missing))
            loaded = await fetch(missing)
            await cache.set_many({key: encode(view) for key, view in loaded.items()})
            found.update(loaded)
        return found
