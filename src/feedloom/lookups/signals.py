"""What a like or a comment tells beyond its count: it moves trending (lookups/trending.py)
and the author's hourly likes (lookups/spikes.py). Spikes see every like, suspicious or
not, since finding rings is their point; trending and the ranking features ignore
accounts a moderator flagged as suspicious (UserProfile.flagged)."""

from __future__ import annotations

from feedloom.domain.model import Post
from feedloom.domain.spikes import SpikeKind
from feedloom.lookups.cached_views import Views
from feedloom.lookups.spikes import SpikeTally
from feedloom.lookups.trending import TrendingTally


class EngagementSignals:
    def __init__(self, trending: TrendingTally, spikes: SpikeTally, views: Views) -> None:
        self._trending, self._spikes, self._views = trending, spikes, views

    async def engaged(self, user_id: int, post: Post, weight: float, like: bool) -> bool:
        """Record one like or comment; True if it counts toward ranking."""
        if like:
            self._spikes.add(SpikeKind.LIKES, post.author_id)
        profile = (await self._views.profiles([user_id])).get(user_id)
        if profile is None or profile.flagged:
            return False
        self._trending.add(post.id, weight)
        return True

    def followed(self, followee_id: int) -> None:
        self._spikes.add(SpikeKind.FOLLOWERS, followee_id)

    async def flush(self) -> int:
        return await self._trending.flush() + await self._spikes.flush()
