"""Tag timelines, cache-aside: each tag's recent public post IDs, refilled from the store.

A home feed pulls the tags its reader follows (read/candidates.py) through
`tagged_post_ids`, the name it used on the durable store: a warm read then costs no SQL
statement, only the lists' read (one pipelined round trip on Redis). A list is capped
(`length`); a page that reaches below the oldest entry of a cut list could miss posts
there, so it is read from the store instead, as a list feed does past its horizon
(read/feed_sources.py).

Kept current by the writes, after their commits: the fan-out adds a delivered post to
the lists of its tags that exist (`published`), a delete or an edit drops the lists of
the tags it lost (`untagged`). The read-time filter hides what a list still holds
wrongly (a deleted or held post, a tag edited away, if a refill read the store just
before the commit): a stale entry costs a slot, never a wrong item. As with author
timelines, a refill that read the store just before a post's commit can miss that post
until the list expires.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.timeline import older_than
from feedloom.ports import AuthorTimelineStore, TagStore


class TagTimelines:
    def __init__(self, cache: AuthorTimelineStore, tags: TagStore, length: int) -> None:
        self._cache, self._tags, self._length = cache, tags, length

    async def tagged_post_ids(
        self, tag_ids: Sequence[int], before: int | None, limit: int
    ) -> list[tuple[int, int]]:
        """What `TagStore.tagged_post_ids` returns: (post ID, tag ID), newest first, a
        post under the lowest of its tags' IDs."""
        if not tag_ids:
            return []
        lists = await self._recent(tag_ids)
        found: dict[int, int] = {}
        for tag_id in sorted(lists):  # the lowest tag ID labels a post, as the store's order
            for post_id in older_than(lists[tag_id], before)[:limit]:
                found.setdefault(post_id, tag_id)
        chosen = sorted(found, reverse=True)[:limit]
        cut = [ids[-1] for ids in lists.values() if len(ids) >= self._length]
        horizon = max(cut, default=None)
        if horizon is not None and (len(chosen) < limit or chosen[-1] < horizon):
            return await self._tags.tagged_post_ids(tag_ids, before, limit)
        return [(post_id, found[post_id]) for post_id in chosen]

    async def published(self, post_ids: Sequence[int]) -> None:
        """Delivered posts join the cached lists of their tags (lists nobody reads do not
        exist, and are not made)."""
        pairs = await self._tags.public_tags_of(post_ids)
        if pairs:
            await self._cache.push_many(pairs)

    async def untagged(self, names: Sequence[str]) -> None:
        """A post no longer carries these tags (deleted, or edited): their lists are
        dropped, refilled from the store by their next read. Taking the one post out
        instead would leave a full list one short, which reads as the tag's whole
        history (not cut) and would end its pages too early."""
        if names:
            for tag in (await self._tags.tags(names)).values():
                await self._cache.drop(tag.id)

    async def _recent(self, tag_ids: Sequence[int]) -> dict[int, list[int]]:
        found = await self._cache.read_many(tag_ids)
        for tag_id in tag_ids:
            if tag_id not in found:  # lost or never read: rebuilt from the store
                found[tag_id] = await self._tags.tag_post_ids(tag_id, None, self._length)
                await self._cache.replace(tag_id, found[tag_id])
        return found
