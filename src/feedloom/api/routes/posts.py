"""Posts, likes and comments."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    AuthorPostsDep,
    CommentId,
    CommentsDep,
    ContextDep,
    CurrentUser,
    Cursor,
    DeletePostDep,
    EditPostDep,
    EngageDep,
    IdempotencyKey,
    PostId,
    PublishDep,
    ReportsDep,
    RepostDep,
    ThreadCursor,
)
from feedloom.api.edit_schemas import HistoryOut, PostEdit, render_history
from feedloom.api.moderation_schemas import NewReport, Reported
from feedloom.api.render import json_response
from feedloom.api.schemas import (
    CommentOut,
    CommentPage,
    ContextOut,
    Item,
    Liked,
    NewComment,
    NewPost,
    PostCreated,
    Relation,
)
from feedloom.domain.model import Comment
from feedloom.write.edit_post import MediaChoice, PostChanges

router = APIRouter(prefix="/v1/posts", tags=["posts"])


@router.post("", status_code=201, response_model=PostCreated)
async def create_post(
    body: NewPost,
    publish: PublishDep,
    author: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> PostCreated:
    """Publish a post, a reply (`in_reply_to`) or a quote (`quote_of`); with
    `Idempotency-Key`, a retry returns the first post."""
    published = await publish(
        author,
        body.text,
        body.media_ids,
        body.visibility,
        key,
        in_reply_to=body.in_reply_to,
        quote_of=body.quote_of,
    )
    response.headers["Location"] = f"/v1/posts/{published.post_id}"
    if published.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return PostCreated(post_id=str(published.post_id), created_at=published.created_at)


@router.get("/{post_id}", response_model=Item)
async def get_post(post_id: PostId, posts: AuthorPostsDep, viewer: CurrentUser) -> Item:
    """One post as the viewer may see it (404 when deleted, private or blocked)."""
    return Item.of(await posts.post(viewer, post_id))


@router.patch("/{post_id}", response_model=Item)
async def edit_post(
    post_id: PostId,
    body: PostEdit,
    edit: EditPostDep,
    posts: AuthorPostsDep,
    author: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> Item:
    """Edit your post: text, media, alt text (only fields sent change; the visibility
    cannot). 404 for a post that is not yours; `Idempotency-Key` makes a retry safe."""
    media = None
    if body.media is not None:
        media = [MediaChoice(choice.id, choice.alt) for choice in body.media]
    edited = await edit(author, post_id, PostChanges(body.text, media, body.visibility), key)
    if edited.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return Item.of(await posts.post(author, edited.post_id))


@router.get("/{post_id}/history", response_model=HistoryOut)
async def post_history(post_id: PostId, edit: EditPostDep, viewer: CurrentUser) -> HistoryOut:
    """Every version of a post you may see, oldest first, the current one last."""
    return render_history(await edit.history(viewer, post_id))


@router.delete("/{post_id}", status_code=204)
async def remove_post(post_id: PostId, delete: DeletePostDep, user: CurrentUser) -> Response:
    """Delete your post: gone from every feed at once (idempotent)."""
    await delete(user, post_id)
    return Response(status_code=204)


@router.put("/{post_id}/repost", response_model=Relation)
async def put_repost(post_id: PostId, repost: RepostDep, user: CurrentUser) -> Relation:
    """Repost a public post to your followers (idempotent: twice is one repost; a
    repost's ID reposts its original). 422 for a followers-only post."""
    return Relation(changed=await repost.repost(user, post_id))


@router.delete("/{post_id}/repost", response_model=Relation)
async def delete_repost(post_id: PostId, repost: RepostDep, user: CurrentUser) -> Relation:
    """Undo your repost (idempotent: `changed` is false if there was none)."""
    return Relation(changed=await repost.unrepost(user, post_id))


@router.put("/{post_id}/like", response_model=Liked)
async def put_like(post_id: PostId, engage: EngageDep, user: CurrentUser) -> Liked:
    """Like a post (idempotent: twice is one like)."""
    return Liked(liked=True, changed=await engage.like(user, post_id))


@router.delete("/{post_id}/like", response_model=Liked)
async def delete_like(post_id: PostId, engage: EngageDep, user: CurrentUser) -> Liked:
    """Take a like back (idempotent)."""
    return Liked(liked=False, changed=await engage.unlike(user, post_id))


@router.post("/{post_id}/comments", status_code=201, response_model=CommentOut)
async def create_comment(
    post_id: PostId,
    body: NewComment,
    publish: PublishDep,
    user: CurrentUser,
    key: IdempotencyKey = None,
) -> CommentOut:
    """Comment on a post: a direct reply with the post's visibility (it is one in every
    feed and thread too); `Idempotency-Key` makes a retry safe."""
    return _comment(await publish.comment(user, post_id, body.text, key))


@router.post("/{post_id}/reports", response_model=Reported)
async def report_post(
    post_id: PostId, body: NewReport, reports: ReportsDep, user: CurrentUser
) -> Reported:
    """Report a post to the moderators (idempotent: reporting twice is one report)."""
    return Reported(reported=True, changed=await reports.report(user, post_id, body.reason))


@router.get("/{post_id}/comments", response_model=CommentPage)
async def list_comments(
    post_id: PostId,
    comments: CommentsDep,
    viewer: CurrentUser,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> CommentPage:
    """The post's direct replies as comments, newest first, cursor-paged (none you may
    not see, none by accounts you block, that block you or that you mute)."""
    page = await comments.page(viewer, post_id, cursor, limit)
    return CommentPage(items=[_comment(c) for c in page.comments], next_cursor=page.next_cursor)


@router.get("/{post_id}/context", response_model=ContextOut)
async def get_context(
    post_id: PostId,
    context: ContextDep,
    viewer: CurrentUser,
    cursor: ThreadCursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 40,
) -> Response:
    """The post's thread: its ancestors (root first, first page only) and its
    descendants, depth first with each post's replies oldest first, cursor-paged.
    Posts you may not see, and those of accounts you mute, are left out."""
    return json_response(render.context_page(await context.page(viewer, post_id, cursor, limit)))


@router.delete("/{post_id}/comments/{comment_id}", status_code=204)
async def delete_comment(
    post_id: PostId, comment_id: CommentId, delete: DeletePostDep, user: CurrentUser
) -> Response:
    """Delete your own comment, a direct reply of the post (idempotent: deleting it
    again, or an ID that is no reply of the post, changes nothing)."""
    await delete.comment(user, post_id, comment_id)
    return Response(status_code=204)


def _comment(comment: Comment) -> CommentOut:
    return CommentOut(
        id=str(comment.id),
        post_id=str(comment.post_id),
        author_id=str(comment.author_id),
        text=comment.text,
        created_at=comment.created_at,
    )
