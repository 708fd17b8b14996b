"""Follow, unfollow, block, mute: idempotent relation writes.

Read paths enforce relations at read time (a stale timeline entry is filtered, never
trusted), so these writes only touch the graph, the author's pushed/pulled status and
the follower's own timeline.
"""

from __future__ import annotations

from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.cached_views import Views
from feedloom.lookups.notifications import NotificationRecords
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.signals import EngagementSignals
from feedloom.ports import (
    Clock,
    FanoutModes,
    GraphReader,
    ProfileStore,
    RelationStore,
    TimelineStore,
)
from feedloom.write.throttle import Throttle


class Relations:
    def __init__(
        self,
        relations: RelationStore,
        graph: GraphReader,
        profiles: ProfileStore,
        fanout_modes: FanoutModes,
        views: Views,
        states: ReaderStates,
        timelines: TimelineStore,
        author_timelines: AuthorTimelines,
        throttle: Throttle,
        policy: FanoutPolicy,
        clock: Clock,
    ) -> None:
        self._relations, self._graph = relations, graph
        self._profiles, self._fanout_modes, self._views = profiles, fanout_modes, views
        self._states = states
        self._timelines, self._author_timelines = timelines, author_timelines
        self._throttle, self._policy = throttle, policy
        self._clock = clock
        self.signals: EngagementSignals | None = None  # follower spikes
        # Blocks and mutes change what a recipient's notifications show.
        self.notifications: NotificationRecords | None = None

    async def follow(self, follower_id: int, followee_id: int, reposts: bool | None = None) -> bool:
        """`reposts` (None: as it is, or true for a new follow) says whether the follow
        brings the followee's reposts; the next read honours it (the reader's record)."""
        await self._check_target(follower_id, followee_id, undo=False)
        if await self._graph.is_blocked_either_way(follower_id, followee_id):
            # As its profile is: under a block the account is not there for you.
            raise NotFound("no such user")
        if await self._graph.is_following(follower_id, followee_id):
            # A retry, not charged: it finishes what a failed attempt may have left undone.
            changed = reposts is not None and await self._relations.follow_reposts(
                follower_id, followee_id, reposts
            )
            await self._followed(follower_id, followee_id)
            return changed
        await self._throttle.account("follows", follower_id)
        created = await self._relations.follow(
            follower_id, followee_id, self._clock(), reposts is not False
        )
        await self._followed(follower_id, followee_id)
        if created and self.signals is not None:
            self.signals.followed(followee_id)  # follower spikes (lookups/spikes.py)
        return created

    async def unfollow(self, follower_id: int, followee_id: int) -> bool:
        await self._check_target(follower_id, followee_id, undo=True)
        removed = await self._relations.unfollow(follower_id, followee_id)
        await self._states.changed([follower_id])
        if removed:
            await self._refresh_fanout_mode(followee_id)
            await self._views.forget_profiles([follower_id, followee_id])
        return removed

    async def block(self, blocker_id: int, blocked_id: int) -> bool:
        await self._check_target(blocker_id, blocked_id, undo=False)
        created = await self._relations.block(blocker_id, blocked_id, self._clock())
        await self._states.changed([blocker_id, blocked_id])  # "blocked" goes either way
        await self._notifications_changed([blocker_id, blocked_id])
        for user_id in (blocker_id, blocked_id):
            await self._refresh_fanout_mode(user_id)
        await self._views.forget_profiles([blocker_id, blocked_id])
        return created

    async def unblock(self, blocker_id: int, blocked_id: int) -> bool:
        await self._check_target(blocker_id, blocked_id, undo=True)
        removed = await self._relations.unblock(blocker_id, blocked_id)
        await self._states.changed([blocker_id, blocked_id])
        await self._notifications_changed([blocker_id, blocked_id])
        return removed

    async def mute(self, muter_id: int, muted_id: int, notifications: bool = True) -> bool:
        """`notifications`: the mute silences the account's notifications too (the
        default); false mutes their posts in the feed only."""
        await self._check_target(muter_id, muted_id, undo=False)
        changed = await self._relations.mute(muter_id, muted_id, self._clock(), notifications)
        await self._states.changed([muter_id])
        await self._notifications_changed([muter_id])
        return changed

    async def unmute(self, muter_id: int, muted_id: int) -> bool:
        await self._check_target(muter_id, muted_id, undo=True)
        removed = await self._relations.unmute(muter_id, muted_id)
        await self._states.changed([muter_id])
        await self._notifications_changed([muter_id])
        return removed

    async def _notifications_changed(self, user_ids: list[int]) -> None:
        if self.notifications is not None:
            await self.notifications.changed(user_ids)

    async def _followed(self, follower_id: int, followee_id: int) -> None:
        """After a follow committed: the caches it changed (each step idempotent)."""
        await self._states.changed([follower_id])
        pulled = await self._refresh_fanout_mode(followee_id)
        await self._views.forget_profiles([follower_id, followee_id])
        await self._merge_followee(follower_id, followee_id, pulled)

    async def _merge_followee(self, follower_id: int, followee_id: int, pulled: bool) -> None:
        """The new followee's recent posts show at once, not only its future ones (a
        pulled one's are merged at read time). A timeline that held everything no longer
        does if the followee has more than its author timeline, or is pulled."""
        recent = [] if pulled else await self._author_timelines.recent_of(followee_id)
        if pulled or not self._author_timelines.holds_all(recent):
            await self._timelines.mark_incomplete(follower_id)
        await self._timelines.merge_if_present(follower_id, recent)

    async def _check_target(self, actor_id: int, target_id: int, undo: bool) -> None:
        """An erased account is missing, like one that never was (its row is only a
        tombstone). A suspended one is missing too, as its profile is, except to undo a
        relation: a suspension may end, and a follow or block would come back with it
        unless its owner could drop it meanwhile."""
        if actor_id == target_id:
            raise InvalidInput("you cannot do this to your own account")
        profile = (await self._profiles.profiles([target_id])).get(target_id)
        if profile is None or profile.deleted or (profile.suspended and not undo):
            raise NotFound("no such user")

    async def _refresh_fanout_mode(self, author_id: int) -> bool:
        """Re-decide push or pull after the follower count moved (with hysteresis)."""
        profile = (await self._profiles.profiles([author_id]))[author_id]
        pulled = self._policy.is_pulled(profile.followers, profile.pulled)
        if pulled != profile.pulled:
            await self._fanout_modes.set_pulled(author_id, pulled, self._clock())
            await self._states.modes_changed()  # every reader's pulled list is rebuilt
        return pulled
