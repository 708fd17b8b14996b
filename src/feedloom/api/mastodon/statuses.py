"""Statuses and the home timeline: create (with `Idempotency-Key`), get, delete (the
deleted status with its text), context, favourite/unfavourite, reblog/unreblog,
favourited_by/reblogged_by; GET /api/v1/timelines/home. Each maps onto the use case
/v1 calls (PublishPost, AuthorPosts, DeletePost, Context, Engage, Repost, HomeFeed;
People for the lists of accounts) and renders a Status or Accounts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import (
    AuthorPostsDep,
    ContextDep,
    DeletePostDep,
    EditPostDep,
    FeedsDep,
    HomeFeedDep,
    IdempotencyKey,
    PeopleDep,
    PublishDep,
    feedloom_of,
    post_id_path,
)
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.accounts import people_page
from feedloom.api.mastodon.auth import ReadAccounts, ReadStatuses, WriteStatuses, scoped
from feedloom.api.mastodon.forms import Pairs, many, one, params_of
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import Limit, clamp, entry_id
from feedloom.api.mastodon.windows import Window
from feedloom.bootstrap import Services
from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.feed_definitions import FeedDefinition, parse_source
from feedloom.domain.model import FeedItem, FeedOrder, Visibility
from feedloom.read.author_posts import AuthorPosts
from feedloom.read.feed_page import FeedPage
from feedloom.read.people import People, PeoplePage
from feedloom.read.timing import StageTimer
from feedloom.write.edit_post import MediaChoice, PostChanges

router = APIRouter(prefix="/v1")
StatusId = Annotated[int, Depends(post_id_path)]
Params = Annotated[Pairs, Depends(params_of)]
VISIBILITIES = {"public": Visibility.PUBLIC, "private": Visibility.FOLLOWERS}
REFUSED = {
    "unlisted": "unlisted posts are not supported: a post is public or for followers (private)",
    "direct": "direct messages are not supported: there are no private conversations here",
}
CONTEXT_PAGE, CONTEXT_PAGES = 100, 10  # a thread's descendants: at most 1,000 shown


@router.post("/statuses")
async def create_status(
    request: Request,
    params: Params,
    publish: PublishDep,
    posts: AuthorPostsDep,
    user: WriteStatuses,
    key: IdempotencyKey = None,
) -> JSONResponse:
    visibility = one(params, "visibility") or "public"
    if visibility in REFUSED:
        raise InvalidInput(f"visibility: {REFUSED[visibility]}")
    if visibility not in VISIBILITIES:
        raise InvalidInput("visibility must be public or private")
    if one(params, "poll[options][]") or many(params, "poll[options]"):
        raise InvalidInput("polls are not supported")
    reply_to = one(params, "in_reply_to_id")
    if reply_to is not None:
        entry_id(reply_to, "in_reply_to_id")
    published = await publish(
        user,
        one(params, "status") or "",
        many(params, "media_ids"),
        VISIBILITIES[visibility],
        key,
        in_reply_to=reply_to or None,
    )
    return await _status(request, posts, user, published.post_id)


@router.get("/statuses/{post_id}")
async def get_status(
    request: Request, status_id: StatusId, posts: AuthorPostsDep, user: ReadStatuses
) -> JSONResponse:
    return await _status(request, posts, user, status_id)


@router.delete("/statuses/{post_id}")
async def delete_status(
    request: Request,
    status_id: StatusId,
    posts: AuthorPostsDep,
    delete: DeletePostDep,
    user: WriteStatuses,
) -> JSONResponse:
    item = await posts.post(user, status_id)
    await delete(user, status_id)
    return JSONResponse(entities.deleted_status(item, base_url(request)))


@router.put("/statuses/{post_id}")
async def edit_status(
    request: Request,
    status_id: StatusId,
    params: Params,
    edit: EditPostDep,
    posts: AuthorPostsDep,
    user: WriteStatuses,
    key: IdempotencyKey = None,
) -> JSONResponse:
    """The EditPost of PATCH /v1/posts/{id}: text and media (the visibility cannot change)."""
    media_ids = many(params, "media_ids")
    media = [MediaChoice(media_id) for media_id in media_ids] if media_ids else None
    if media is None and one(params, "media_ids[]") == "":
        media = []  # an empty list sent: every medium removed
    edited = await edit(user, status_id, PostChanges(one(params, "status"), media), key)
    return await _status(request, posts, user, edited.post_id)


@router.get("/statuses/{post_id}/history")
async def status_history(
    request: Request, status_id: StatusId, edit: EditPostDep, user: ReadStatuses
) -> JSONResponse:
    history = await edit.history(user, status_id)
    base = base_url(request)
    author = entities.account(history.author, base)
    return JSONResponse(
        [entities.status_edit(version, author, base) for version in history.versions]
    )


@router.get("/statuses/{post_id}/source")
async def status_source(
    status_id: StatusId, posts: AuthorPostsDep, user: ReadStatuses
) -> JSONResponse:
    item = await posts.post(user, status_id)
    return JSONResponse({"id": str(item.post.id), "text": item.post.text, "spoiler_text": ""})


@router.get("/statuses/{post_id}/context")
async def status_context(
    request: Request, status_id: StatusId, context: ContextDep, user: ReadStatuses
) -> JSONResponse:
    page = await context.page(user, status_id, None, CONTEXT_PAGE)
    ancestors, descendants = page.ancestors, list(page.descendants)
    for _ in range(CONTEXT_PAGES - 1):
        if page.next_cursor is None:
            break
        page = await context.page(user, status_id, page.next_cursor, CONTEXT_PAGE)
        descendants += page.descendants
    base = base_url(request)
    return JSONResponse(
        {
            "ancestors": [entities.status(item, base) for item in ancestors],
            "descendants": [entities.status(item, base) for item in descendants],
        }
    )


Listing = Callable[[People, int, int, int, str | None], Awaitable[PeoplePage]]


def _accounts_route(path: str, listing: Listing) -> None:
    """GET /api/v1/statuses/{id}/{path}: accounts newest first, paged by `Link` (`max_id`
    is the use case's cursor: opaque for likes, the last repost's ID for reposts)."""

    async def route(
        request: Request,
        status_id: StatusId,
        people: PeopleDep,
        user: ReadAccounts,
        limit: Limit = 40,
        max_id: str | None = None,
    ) -> JSONResponse:
        return people_page(request, await listing(people, user, status_id, clamp(limit), max_id))

    router.add_api_route(f"/statuses/{{post_id}}/{path}", route, methods=["GET"])


_accounts_route("favourited_by", People.likers)
_accounts_route("reblogged_by", People.reposters)


Action = Callable[[Services, int, int], Awaitable[bool]]


def _action_route(path: str, action: Action, scope: str) -> None:
    """POST /api/v1/statuses/{id}/{path}: the change, then the status as it is now."""
    needs = scoped(scope)

    async def route(
        request: Request,
        status_id: StatusId,
        posts: AuthorPostsDep,
        user: int = Depends(needs),
    ) -> JSONResponse:
        await action(feedloom_of(request).services, user, status_id)
        return await _status(request, posts, user, status_id)

    router.add_api_route(f"/statuses/{{post_id}}/{path}", route, methods=["POST"])


_action_route("favourite", lambda s, user, post: s.engage.like(user, post), "write:favourites")
_action_route("unfavourite", lambda s, user, post: s.engage.unlike(user, post), "write:favourites")
_action_route("reblog", lambda s, user, post: s.repost.repost(user, post), "write:statuses")
_action_route("unreblog", lambda s, user, post: s.repost.unrepost(user, post), "write:statuses")


@router.get("/timelines/home")
async def home_timeline(
    request: Request, feed: HomeFeedDep, user: ReadStatuses, window: Window
) -> JSONResponse:
    """The same HomeFeed as GET /v1/feed, in time order (Mastodon's home is chronological)."""
    timer = StageTimer()

    async def fetch(cursor: str | None, limit: int) -> FeedPage:
        return await feed.page(user, limit, cursor, timer, FeedOrder.CHRONOLOGICAL)

    return window.render(request, await window.items(fetch))


@router.get("/timelines/tag/{hashtag}")
async def tag_timeline(
    request: Request, hashtag: str, feeds: FeedsDep, user: ReadStatuses, window: Window
) -> JSONResponse:
    """The hashtag's public posts, newest first: the `tag:` feed source of saved feeds
    (read/feeds.py), through the same home pipeline and its filters."""
    timer = StageTimer()
    try:
        source = parse_source(f"tag:{hashtag}")
    except InvalidInput as error:
        raise NotFound("Record not found") from error
    definition = FeedDefinition((source,), order=FeedOrder.CHRONOLOGICAL)

    async def fetch(cursor: str | None, limit: int) -> FeedPage:
        return await feeds.page(user, definition, limit, cursor, timer)

    return window.render(request, await window.items(fetch))


async def _status(request: Request, posts: AuthorPosts, user: int, post_id: int) -> JSONResponse:
    item: FeedItem = await posts.post(user, post_id)
    return JSONResponse(entities.status(item, base_url(request)))
