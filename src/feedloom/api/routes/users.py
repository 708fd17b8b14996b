"""Users and relations: profiles, author timelines, follow/block/mute (idempotent PUT/DELETE)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import AuthorPostsDep, CurrentUser, Cursor, RelationsDep, UserId
from feedloom.api.schemas import FollowOptions, Page, Profile, Relation
from feedloom.domain.model import UserProfile
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


@router.get("/{user_id}", response_model=Profile)
async def get_user(user_id: UserId, profiles: AuthorPostsDep, viewer: CurrentUser) -> Profile:
    """A user's profile with follower counts (404 when a block stands either way)."""
    return render_profile(await profiles.profile(viewer, user_id))


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


_relation_routes("block", Relations.block, Relations.unblock)
_relation_routes("mute", Relations.mute, Relations.unmute)
