"""Moderation: the queue of held and reported posts, release, reject, suspend, flag.
Moderators only (the `moderator` role: `feedloom accounts role USER moderator`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from feedloom.api.deps import CurrentUser, Cursor, ModerationDep, PostId
from feedloom.api.moderation_schemas import (
    AccountState,
    Flagged,
    Moderated,
    QueuedPostOut,
    QueuePage,
    SpikeOut,
    SpikePage,
)
from feedloom.domain.spikes import SpikeKind

router = APIRouter(prefix="/v1/moderation", tags=["moderation"])
Username = Annotated[str, Path(description="the account's username (an unknown one: 404)")]


@router.get("/queue", response_model=QueuePage)
async def queue(
    moderation: ModerationDep,
    moderator: CurrentUser,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> QueuePage:
    """Posts held by the content check or reported by readers, oldest first."""
    page = await moderation.queue(moderator, cursor, limit)
    return QueuePage(
        items=[QueuedPostOut.of(post) for post in page.posts], next_cursor=page.next_cursor
    )


@router.post("/posts/{post_id}/release", response_model=Moderated)
async def release(post_id: PostId, moderation: ModerationDep, moderator: CurrentUser) -> Moderated:
    """Let a held post through: it is fanned out like a new post (idempotent)."""
    return Moderated(post_id=str(post_id), changed=await moderation.release(moderator, post_id))


@router.post("/posts/{post_id}/reject", response_model=Moderated)
async def reject(post_id: PostId, moderation: ModerationDep, moderator: CurrentUser) -> Moderated:
    """Delete the post, held or not: gone from every feed on the next read (idempotent)."""
    return Moderated(post_id=str(post_id), changed=await moderation.reject(moderator, post_id))


@router.put("/accounts/{username}/suspension", response_model=AccountState)
async def suspend(
    username: Username, moderation: ModerationDep, moderator: CurrentUser
) -> AccountState:
    """Suspend an account: signed out at once, its posts gone from every feed."""
    return AccountState.of(await moderation.suspend(moderator, username, suspended=True))


@router.delete("/accounts/{username}/suspension", response_model=AccountState)
async def reinstate(
    username: Username, moderation: ModerationDep, moderator: CurrentUser
) -> AccountState:
    """Reinstate a suspended account."""
    return AccountState.of(await moderation.suspend(moderator, username, suspended=False))


@router.put("/accounts/{username}/flag", response_model=Flagged)
async def flag(username: Username, moderation: ModerationDep, moderator: CurrentUser) -> Flagged:
    """Flag an account as suspicious: its likes and comments stop counting toward ranking."""
    record = await moderation.flag(moderator, username, flagged=True)
    return Flagged(id=str(record.user_id), username=record.username, flagged=True)


@router.delete("/accounts/{username}/flag", response_model=Flagged)
async def unflag(username: Username, moderation: ModerationDep, moderator: CurrentUser) -> Flagged:
    """Take the suspicious flag away."""
    record = await moderation.flag(moderator, username, flagged=False)
    return Flagged(id=str(record.user_id), username=record.username, flagged=False)


@router.get("/spikes", response_model=SpikePage)
async def spikes(
    moderation: ModerationDep,
    moderator: CurrentUser,
    kind: Annotated[SpikeKind, Query(description="followers gained or likes received")] = (
        SpikeKind.FOLLOWERS
    ),
) -> SpikePage:
    """Accounts whose followers or likes this hour are far above their last day (z-score)."""
    found = await moderation.spikes(moderator, kind)
    return SpikePage(
        items=[
            SpikeOut(
                account_id=str(spike.account_id),
                username=username,
                kind=spike.kind.value,
                this_hour=spike.this_hour,
                hourly_mean=spike.hourly_mean,
                z=spike.z,
            )
            for spike, username in found
        ]
    )
