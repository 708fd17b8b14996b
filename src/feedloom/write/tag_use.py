"""Counting tags toward trending tags: a public post adds 1 to each of its tags in the
same sketches as trending posts (ports/sketches.py, its own keys), unless its author
already used that tag within the hour before it. So a tag trends by the number of
distinct authors using it (per hour: one author counts once an hour, in the 24-hour
window too), not by one author's flood. Best effort, after the post is stored: the
figures are approximate anyway, and losing one never fails a post."""

from __future__ import annotations

import logging
from datetime import timedelta

from feedloom.domain.ids import lowest_id_at
from feedloom.domain.model import Post, Visibility
from feedloom.ports import Clock, TagStore, TrendingStore

log = logging.getLogger(__name__)
ONE_AUTHOR_ONCE_IN = timedelta(hours=1)


class TagUse:
    def __init__(self, tags: TagStore, trending: TrendingStore, clock: Clock) -> None:
        self._tags, self._trending, self._clock = tags, trending, clock

    async def counted(self, post: Post) -> None:
        if post.visibility is not Visibility.PUBLIC or not post.tags:
            return
        try:
            found = await self._tags.tags(post.tags)
            ids = [tag.id for tag in found.values()]
            since = lowest_id_at(post.created_at - ONE_AUTHOR_ONCE_IN)
            seen = await self._tags.used_between(post.author_id, ids, since, post.id)
            fresh = {tag_id: 1.0 for tag_id in ids if tag_id not in seen}
            if fresh:
                await self._trending.add(fresh, self._clock())
        except Exception:
            log.warning("tags of post %s not counted toward trending tags", post.id)
