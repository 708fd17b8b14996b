"""Users and relations: profiles, author timelines, follow/block/mute (idempotent PUT/DELETE)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field

from feedloom.api import render
from feedloom.api.deps import AuthorPostsDep, CurrentUser, Cursor, PeopleDep, RelationsDep, UserId
from feedloom.api.schemas import (
    PROFILE_EXAMPLE,
    FollowOptions,
    JsonDict,
    MuteOptions,
    Page,
    Profile,
    Relation,
    example,
)
from feedloom.domain.model import UserProfile
from feedloom.domain.people import RelationFlags
from feedloom.write.relations import Relations

router = APIRouter(prefix="/v1/users", tags=["users"])
Limit = Annotated[int, Query(ge=1, le=100)]


def render_profile(profile: UserProfile) -> Profile:
    return Profile(
        id=str(profile.id),
        username=profile.username,
        name=profile.display_name,
        avatar=profile.avatar,
        followers=profile.followers,
        following=profile.following,
        pulled=profile.pulled,
        bio=profile.bio,
    )


RELATION_EXAMPLE: JsonDict = {
    "following": True,
    "followed_by": False,
    "blocking": False,
    "muting": False,
}


class RelationOut(BaseModel):
    """The viewer's relations with this account, as stored now. A block by the account
    is not among them: such a profile answers 404, like a missing one."""

    model_config = example(RELATION_EXAMPLE)

    following: bool = Field(description="you follow this account")
    followed_by: bool = Field(description="this account follows you")
    blocking: bool = Field(description="you block this account (its posts stay hidden)")
    muting: bool = Field(description="you mute this account (its posts leave your feed)")


class ProfileOut(Profile):
    model_config = example({**PROFILE_EXAMPLE, "relation": RELATION_EXAMPLE})

    relation: RelationOut


def render_relation(flags: RelationFlags) -> RelationOut:
    return RelationOut(
        following=flags.following,
        followed_by=flags.followed_by,
        blocking=flags.blocking,
        muting=flags.muting,
    )


@router.get("/{user_id}", response_model=ProfileOut)
async def get_user(user_id: UserId, people: PeopleDep, viewer: CurrentUser) -> ProfileOut:
    """A user's profile with follower counts and your relations with them (404 when it is
    missing, suspended or deleted, or blocks you; a profile you block is shown, with
    `relation.blocking`, so the block can be undone)."""
    view = await people.profile(viewer, user_id)
    return ProfileOut(
        **render_profile(view.profile).model_dump(), relation=render_relation(view.relation)
    )


@router.get("/{user_id}/posts", response_model=Page)
async def get_user_posts(
    user_id: UserId,
    posts: AuthorPostsDep,
    viewer: CurrentUser,
    cursor: Cursor = None,
    limit: Limit = 20,
) -> Response:
    """A user's posts as the viewer may see them, newest first, cursor-paged."""
    page = await posts.page(viewer, user_id, limit, cursor)
    return render.json_response(render.feed_page(page))


RelationChange = Callable[[Relations, int, int], Awaitable[bool]]


def _relation_routes(name: str, add: RelationChange, remove: RelationChange) -> None:
    async def put(user_id: UserId, relations: RelationsDep, actor: CurrentUser) -> Relation:
        return Relation(changed=await add(relations, actor, user_id))

    async def delete(user_id: UserId, relations: RelationsDep, actor: CurrentUser) -> Relation:
        return Relation(changed=await remove(relations, actor, user_id))

    router.add_api_route(
        f"/{{user_id}}/{name}",
        put,
        methods=["PUT"],
        response_model=Relation,
        summary=f"{name} (idempotent)",
        description=f"{name.capitalize()} this user; `changed` is false if you already did.",
    )
    router.add_api_route(
        f"/{{user_id}}/{name}",
        delete,
        methods=["DELETE"],
        response_model=Relation,
        summary=f"un{name} (idempotent)",
        description=f"Un{name} this user; `changed` is false if there was nothing to undo.",
    )


@router.put("/{user_id}/follow", response_model=Relation, summary="follow (idempotent)")
async def put_follow(
    user_id: UserId,
    relations: RelationsDep,
    actor: CurrentUser,
    options: FollowOptions | None = None,
) -> Relation:
    """Follow this user; `changed` is false if you already did and nothing changed.
    `{"reposts": false}` follows (or keeps following) without their reposts;
    `{"reposts": true}` brings them back."""
    reposts = options.reposts if options is not None else None
    return Relation(changed=await relations.follow(actor, user_id, reposts))


@router.delete("/{user_id}/follow", response_model=Relation, summary="unfollow (idempotent)")
async def delete_follow(user_id: UserId, relations: RelationsDep, actor: CurrentUser) -> Relation:
    """Unfollow this user; `changed` is false if there was nothing to undo."""
    return Relation(changed=await relations.unfollow(actor, user_id))


@router.put("/{user_id}/mute", response_model=Relation, summary="mute (idempotent)")
async def put_mute(
    user_id: UserId,
    relations: RelationsDep,
    actor: CurrentUser,
    options: MuteOptions | None = None,
) -> Relation:
    """Mute this user: their posts leave your feed and, unless `{"notifications": false}`,
    their notifications stop too. `changed` is false if you already did, just so."""
    notifications = options.notifications if options is not None else True
    return Relation(changed=await relations.mute(actor, user_id, notifications))


_relation_routes("block", Relations.block, Relations.unblock)


@router.delete("/{user_id}/mute", response_model=Relation, summary="unmute (idempotent)")
async def delete_mute(user_id: UserId, relations: RelationsDep, actor: CurrentUser) -> Relation:
    """Unmute this user (their posts and notifications); `changed` is false if there was
    nothing to undo."""
    return Relation(changed=await relations.unmute(actor, user_id))
