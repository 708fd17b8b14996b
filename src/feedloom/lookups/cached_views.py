"""Post and profile views, cache-aside: one batched cache call, misses from the store
in one call, then cached. Never one call per item; serializing is the cache adapter's
business (none in process).

A post's author never changes, so the authors of posts seen before are remembered in
process (bounded): a page can then ask for its authors' profiles in the same round trip
as its posts, instead of after them (read/hydrate.py); so are the originals of reposts
seen before, whose counts and likes a page then asks for in place of the reposts'.

A repost's view names its original; `posts` loads the originals of the reposts among
what it found (one more batched call, only when there are any) and attaches each to
its repost, so every reader of views (the feed's filter, a post page, access checks)
sees a repost with what it reposts. The cached view of a repost never holds it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from cachetools import FIFOCache

from feedloom.domain.model import Post, UserProfile
from feedloom.metrics import Metrics
from feedloom.ports import PostStore, ProfileStore, ViewCache

V = TypeVar("V")
KNOWN_AUTHORS = 100_000  # post -> author facts kept unless told otherwise


class PostAuthors:
    """Which account wrote which post, and which original a repost reposts, for posts
    this process has seen (both facts never change)."""

    def __init__(self, limit: int = KNOWN_AUTHORS) -> None:
        # The author, or (author, original) for a repost; the oldest go first.
        self._facts: FIFOCache[int, int | tuple[int, int]] = FIFOCache(maxsize=limit)

    def known(self, post_ids: Sequence[int]) -> list[int]:
        return list(self.of(post_ids).values())

    def of(self, post_ids: Sequence[int]) -> dict[int, int]:
        """Post -> author, for the posts whose author is known."""
        facts = self._facts
        known = {}
        for post_id in post_ids:
            fact = facts.get(post_id)
            if fact is not None:
                known[post_id] = fact if isinstance(fact, int) else fact[0]
        return known

    def shown(self, post_ids: Sequence[int]) -> list[int]:
        """The posts these entries show, as far as known: a known repost's original in
        its place (a repost's own counts and likes are never shown), once each."""
        facts = self._facts
        shown = []
        for post_id in post_ids:
            fact = facts.get(post_id)
            shown.append(fact[1] if isinstance(fact, tuple) else post_id)
        return list(dict.fromkeys(shown))

    def learn(self, posts: Iterable[Post]) -> None:
        facts = self._facts
        for post in posts:
            if post.id not in facts:  # most posts of a warm page are known already
                original = post.repost_of
                facts[post.id] = post.author_id if original is None else (post.author_id, original)


class Views:
    def __init__(
        self,
        post_cache: ViewCache[Post],
        user_cache: ViewCache[UserProfile],
        posts: PostStore,
        profiles: ProfileStore,
        metrics: Metrics,
        known_authors: int = KNOWN_AUTHORS,
    ) -> None:
        self._post_cache, self._user_cache = post_cache, user_cache
        self._posts, self._profiles = posts, profiles
        self._misses = metrics.hydration_misses
        self.authors = PostAuthors(known_authors)

    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]:
        found = await self._cache_aside("post", self._post_cache, post_ids, self._posts.posts)
        self.authors.learn(found.values())
        originals = {post.repost_of for post in found.values() if post.repost_of is not None}
        if not originals:
            return found
        loaded = await self._cache_aside(
            "post", self._post_cache, list(originals), self._posts.posts
        )
        self.authors.learn(loaded.values())
        return {
            post_id: replace(post, original=loaded.get(post.repost_of))
            if post.repost_of is not None
            else post
            for post_id, post in found.items()
        }

    async def post(self, post_id: int) -> Post | None:
        return (await self.posts([post_id])).get(post_id)

    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]:
        return await self._cache_aside("user", self._user_cache, user_ids, self._profiles.profiles)

    async def remember_posts(self, posts: Sequence[Post]) -> None:
        """Write-through of views just stored (a new post): its first readers find it."""
        self.authors.learn(posts)
        await self._post_cache.set_many({post.id: post for post in posts})

    async def forget_posts(self, post_ids: Sequence[int]) -> None:
        await self._post_cache.delete_many(post_ids)

    async def forget_profiles(self, user_ids: Sequence[int]) -> None:
        await self._user_cache.delete_many(user_ids)

    async def _cache_aside(
        self,
        kind: str,
        cache: ViewCache[V],
        ids: Sequence[int],
        fetch: Callable[[Sequence[int]], Awaitable[dict[int, V]]],
    ) -> dict[int, V]:
        wanted = list(dict.fromkeys(ids))
        found = await cache.get_many(wanted)
        if len(found) < len(wanted):
            missing = [key for key in wanted if key not in found]
            self._misses.labels(kind).inc(len(missing))
            loaded = await fetch(missing)
            await cache.set_many(loaded)
            found.update(loaded)
        return found
