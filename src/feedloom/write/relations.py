"""Follow, unfollow, block, mute: idempotent relation writes.

Read paths enforce relations at read time (a stale timeline entry is filtered, never
trusted), so these writes only touch the graph, the author's pushed/pulled status and
the follower's own timeline.
"""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.errors import Forbidden, InvalidInput, NotFound, RateLimited
from feedloom.read.author_timelines import recent_post_ids


async def follow(backend: Backend, follower_id: int, followee_id: int) -> bool:
    await _check_target(backend, follower_id, followee_id)
    if await backend.graph.is_blocked_either_way(follower_id, followee_id):
        raise Forbidden("you cannot follow this account")
    if await backend.graph.is_following(follower_id, followee_id):
        return False  # a retry: nothing to do, and no rate-limit charge
    limit = backend.settings.follows_per_hour
    retry_after = await backend.rate_limiter.hit(f"follows:{follower_id}", limit, 3600)
    if retry_after:
        raise RateLimited(f"at most {limit} follows per hour", retry_after)
    created = await backend.graph.follow(follower_id, followee_id, backend.clock())
    if created:
        pulled = await _refresh_fanout_mode(backend, followee_id)
        await backend.user_cache.delete_many([follower_id, followee_id])
        if not pulled:
            # The new followee's recent posts show at once, not only its future ones.
            recent = await recent_post_ids(backend, [followee_id])
            await backend.timelines.merge_if_present(follower_id, recent.get(followee_id, []))
    return created


async def unfollow(backend: Backend, follower_id: int, followee_id: int) -> bool:
    await _check_target(backend, follower_id, followee_id)
    removed = await backend.graph.unfollow(follower_id, followee_id)
    if removed:
        await _refresh_fanout_mode(backend, followee_id)
        await backend.user_cache.delete_many([follower_id, followee_id])
    return removed


async def block(backend: Backend, blocker_id: int, blocked_id: int) -> bool:
    await _check_target(backend, blocker_id, blocked_id)
    created = await backend.graph.block(blocker_id, blocked_id, backend.clock())
    for user_id in (blocker_id, blocked_id):
        await _refresh_fanout_mode(backend, user_id)
    await backend.user_cache.delete_many([blocker_id, blocked_id])
    return created


async def unblock(backend: Backend, blocker_id: int, blocked_id: int) -> bool:
    await _check_target(backend, blocker_id, blocked_id)
    return await backend.graph.unblock(blocker_id, blocked_id)


async def mute(backend: Backend, muter_id: int, muted_id: int) -> bool:
    await _check_target(backend, muter_id, muted_id)
    return await backend.graph.mute(muter_id, muted_id, backend.clock())


async def unmute(backend: Backend, muter_id: int, muted_id: int) -> bool:
    await _check_target(backend, muter_id, muted_id)
    return await backend.graph.unmute(muter_id, muted_id)


async def _check_target(backend: Backend, actor_id: int, target_id: int) -> None:
    if actor_id == target_id:
        raise InvalidInput("you cannot do this to your own account")
    if target_id not in await backend.accounts.profiles([target_id]):
        raise NotFound("no such user")


async def _refresh_fanout_mode(backend: Backend, author_id: int) -> bool:
    """Re-decide push or pull after the follower count moved (with hysteresis)."""
    profile = (await backend.accounts.profiles([author_id]))[author_id]
    pulled = backend.policy.is_pulled(profile.followers, profile.pulled)
    if pulled != profile.pulled:
        await backend.accounts.set_pulled(author_id, pulled)
    return pulled
