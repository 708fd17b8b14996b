"""PUT|DELETE /v1/tags/{tag}/follow: follow a tag, whose public posts then join the
follower's home feed at read time (read/candidates.py). Idempotent; the reader's
cached relations, which carry the followed tags, are dropped after the commit so the
next read pulls (or stops pulling) the tag."""

from __future__ import annotations

from feedloom.domain.errors import Conflict
from feedloom.domain.facets import tag_name
from feedloom.lookups.reader_state import FOLLOWED_TAGS, ReaderStates
from feedloom.ports import Clock, TagStore
from feedloom.write.throttle import Throttle


class FollowTags:
    def __init__(
        self, tags: TagStore, states: ReaderStates, throttle: Throttle, clock: Clock
    ) -> None:
        self._tags, self._states, self._throttle, self._clock = tags, states, throttle, clock

    async def follow(self, user_id: int, raw: str) -> bool:
        name = tag_name(raw)
        followed = await self._tags.followed(user_id, FOLLOWED_TAGS)
        if any(tag.name == name for tag in followed):
            return False
        if len(followed) >= FOLLOWED_TAGS:
            raise Conflict(f"you follow {FOLLOWED_TAGS} tags already: unfollow one first")
        await self._throttle.account("follows", user_id)
        changed = await self._tags.follow(user_id, name, self._clock())
        await self._states.changed([user_id])
        return changed

    async def unfollow(self, user_id: int, raw: str) -> bool:
        changed = await self._tags.unfollow(user_id, tag_name(raw))
        await self._states.changed([user_id])
        return changed
