"""What an app does on a user's behalf (docs/INTEGRATION.md): post, reply, comment,
like, delete, follow, read the home feed. Each route is the /v1 route itself, called
with the user the external ID names: the same use case, limits and shapes."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from feedloom.api.app_deps import (
    ActingFollower,
    ActingPoster,
    ActingReader,
    ExternalId,
    app_services,
)
from feedloom.api.deps import (
    CommentId,
    DeletePostDep,
    EngageDep,
    FeedCursor,
    HomeFeedDep,
    IdempotencyKey,
    PostId,
    PublishDep,
    RelationsDep,
)
from feedloom.api.routes import feed, posts
from feedloom.api.schemas import (
    CommentOut,
    FeedPageOut,
    Liked,
    NewComment,
    NewPost,
    PostCreated,
    Relation,
)
from feedloom.domain.apps import AppCaller
from feedloom.domain.model import FeedOrder

router = APIRouter(prefix="/v1/apps/users/{external_id}", tags=["apps"])


@router.post("/posts", status_code=201, response_model=PostCreated)
async def create_post(
    body: NewPost,
    publish: PublishDep,
    author: ActingPoster,
    response: Response,
    key: IdempotencyKey = None,
) -> PostCreated:
    """POST /v1/posts as the user: a post, a reply (`in_reply_to`) or a quote."""
    return await posts.create_post(body, publish, author, response, key)


@router.delete("/posts/{post_id}", status_code=204)
async def delete_post(post_id: PostId, delete: DeletePostDep, user: ActingPoster) -> Response:
    """DELETE /v1/posts/{post_id} as the user (idempotent)."""
    return await posts.remove_post(post_id, delete, user)


@router.put("/likes/{post_id}", response_model=Liked)
async def put_like(post_id: PostId, engage: EngageDep, user: ActingPoster) -> Liked:
    """PUT /v1/posts/{post_id}/like as the user (idempotent)."""
    return await posts.put_like(post_id, engage, user)


@router.delete("/likes/{post_id}", response_model=Liked)
async def delete_like(post_id: PostId, engage: EngageDep, user: ActingPoster) -> Liked:
    """DELETE /v1/posts/{post_id}/like as the user (idempotent)."""
    return await posts.delete_like(post_id, engage, user)


@router.post("/posts/{post_id}/comments", status_code=201, response_model=CommentOut)
async def create_comment(
    post_id: PostId,
    body: NewComment,
    publish: PublishDep,
    user: ActingPoster,
    key: IdempotencyKey = None,
) -> CommentOut:
    """POST /v1/posts/{post_id}/comments as the user."""
    return await posts.create_comment(post_id, body, publish, user, key)


@router.delete("/posts/{post_id}/comments/{comment_id}", status_code=204)
async def delete_comment(
    post_id: PostId, comment_id: CommentId, delete: DeletePostDep, user: ActingPoster
) -> Response:
    """DELETE /v1/posts/{post_id}/comments/{comment_id} as the user (idempotent)."""
    return await posts.delete_comment(post_id, comment_id, delete, user)


@router.put("/follows/{followee}", response_model=Relation)
async def put_follow(
    followee: ExternalId,
    request: Request,
    relations: RelationsDep,
    follower: ActingFollower,
) -> Relation:
    """The user follows the app's user `followee` (idempotent)."""
    target = await _followee(request, followee)
    return Relation(changed=await relations.follow(follower, target))


@router.delete("/follows/{followee}", response_model=Relation)
async def delete_follow(
    followee: ExternalId,
    request: Request,
    relations: RelationsDep,
    follower: ActingFollower,
) -> Relation:
    """The user unfollows `followee` (idempotent)."""
    target = await _followee(request, followee)
    return Relation(changed=await relations.unfollow(follower, target))


@router.get("/feed", response_model=FeedPageOut, response_model_exclude_unset=True)
async def get_feed(
    home: HomeFeedDep,
    reader: ActingReader,
    cursor: FeedCursor = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
    order: Annotated[FeedOrder | None, Query(description="default: the user's setting")] = None,
    explain: Annotated[bool, Query(description="add each item's source and score")] = False,
) -> Response:
    """GET /v1/feed as the user: the same page, the same shape."""
    return await feed.get_feed(home, reader, cursor, limit, order, explain)


async def _followee(request: Request, external_id: str) -> int:
    caller: AppCaller = request.state.app_caller
    return await app_services(request).links.user_of(caller.app_id, external_id)
