"""Posts, likes and comments."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response

from feedloom.api.deps import BackendDep, CurrentUser, Cursor, PostId
from feedloom.api.schemas import (
    CommentOut,
    CommentPage,
    Item,
    Liked,
    NewComment,
    NewPost,
    PostCreated,
)
from feedloom.domain.cursors import KeysetCursor, decode_cursor, encode_cursor
from feedloom.domain.errors import BadCursor
from feedloom.domain.model import Comment
from feedloom.read.author_posts import single_post
from feedloom.write.delete_post import delete_post
from feedloom.write.engagement import add_comment, like, unlike, visible_post
from feedloom.write.publish_post import publish_post

router = APIRouter(prefix="/v1/posts", tags=["posts"])
IdempotencyKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", description="a retry with the same key returns the same post"),
]


@router.post("", status_code=201, response_model=PostCreated)
async def create_post(
    body: NewPost,
    backend: BackendDep,
    author: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> PostCreated:
    published = await publish_post(backend, author, body.text, body.media_ids, body.visibility, key)
    response.headers["Location"] = f"/v1/posts/{published.post_id}"
    if published.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return PostCreated(post_id=str(published.post_id), created_at=published.created_at)


@router.get("/{post_id}", response_model=Item)
async def get_post(post_id: PostId, backend: BackendDep, viewer: CurrentUser) -> Item:
    return Item.of(await single_post(backend, viewer, post_id))


@router.delete("/{post_id}", status_code=204)
async def remove_post(post_id: PostId, backend: BackendDep, user: CurrentUser) -> Response:
    await delete_post(backend, user, post_id)
    return Response(status_code=204)


@router.put("/{post_id}/like", response_model=Liked)
async def put_like(post_id: PostId, backend: BackendDep, user: CurrentUser) -> Liked:
    return Liked(liked=True, changed=await like(backend, user, post_id))


@router.delete("/{post_id}/like", response_model=Liked)
async def delete_like(post_id: PostId, backend: BackendDep, user: CurrentUser) -> Liked:
    return Liked(liked=False, changed=await unlike(backend, user, post_id))


@router.post("/{post_id}/comments", status_code=201, response_model=CommentOut)
async def create_comment(
    post_id: PostId,
    body: NewComment,
    backend: BackendDep,
    user: CurrentUser,
    key: IdempotencyKey = None,
) -> CommentOut:
    return _comment(await add_comment(backend, user, post_id, body.text, key))


@router.get("/{post_id}/comments", response_model=CommentPage)
async def list_comments(
    post_id: PostId,
    backend: BackendDep,
    viewer: CurrentUser,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> CommentPage:
    await visible_post(backend, viewer, post_id)
    before = None
    if cursor is not None:
        decoded = decode_cursor(cursor)
        if not isinstance(decoded, KeysetCursor):
            raise BadCursor("not a comments cursor")
        before = decoded.before
    comments = await backend.engagement.comments(post_id, before, limit + 1)
    more = len(comments) > limit
    comments = comments[:limit]
    next_cursor = encode_cursor(KeysetCursor(comments[-1].id)) if more else None
    return CommentPage(items=[_comment(c) for c in comments], next_cursor=next_cursor)


def _comment(comment: Comment) -> CommentOut:
    return CommentOut(
        id=str(comment.id),
        post_id=str(comment.post_id),
        author_id=str(comment.author_id),
        text=comment.text,
        created_at=comment.created_at,
    )
