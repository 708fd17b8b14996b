"""Accounts: verify_credentials, update_credentials, lookup, relationships, search, one
account, its statuses, followers and following, follow/unfollow, block/unblock,
mute/unmute; GET /api/v1/blocks and /api/v1/mutes. Each maps onto the use case /v1
calls (People, AuthorPosts, Relations, EditProfile) and renders Mastodon's shapes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import (
    AuthorPostsDep,
    EditProfileDep,
    MediaDep,
    PeopleDep,
    RelationsDep,
    user_id_path,
)
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import (
    ReadAccounts,
    ReadBlocks,
    ReadFollows,
    ReadMutes,
    ReadStatuses,
    WriteAccounts,
    WriteFollows,
    scoped,
)
from feedloom.api.mastodon.forms import Pairs, flag, many, one, params_and_files, params_of
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import DEFAULT_LIMIT, Limit, clamp, entry_id, paged
from feedloom.api.mastodon.windows import Window
from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.read.feed_page import FeedPage
from feedloom.read.people import People, PeoplePage
from feedloom.write.relations import Relations

router = APIRouter(prefix="/v1")
AccountId = Annotated[int, Depends(user_id_path)]
Params = Annotated[Pairs, Depends(params_of)]


@router.get("/accounts/verify_credentials")
async def verify_credentials(
    request: Request, profiles: AuthorPostsDep, user: ReadAccounts
) -> JSONResponse:
    profile = await profiles.profile(user, user)
    return JSONResponse(entities.credential_account(profile, base_url(request)))


@router.patch("/accounts/update_credentials")
async def update_credentials(
    request: Request,
    edit: EditProfileDep,
    media: MediaDep,
    profiles: AuthorPostsDep,
    user: WriteAccounts,
) -> JSONResponse:
    """EditProfile, as PATCH /v1/me: display name, note (the bio) and an avatar, which
    comes as a multipart file and goes through the /api/v2/media pipeline (size, type,
    re-encoded without metadata) before it becomes the avatar. Profile headers are
    refused: we have none to show."""
    params, files = await params_and_files(request)
    if "header" in files or one(params, "header"):
        raise InvalidInput("header: profile header images are not supported")
    avatar = files.get("avatar")
    uploaded = await media.upload(user, avatar) if avatar is not None else None
    await edit(
        user,
        one(params, "display_name"),
        one(params, "note"),
        set_avatar=uploaded is not None,
        avatar_media_id=str(uploaded.id) if uploaded is not None else None,
    )
    profile = await profiles.profile(user, user)
    return JSONResponse(entities.credential_account(profile, base_url(request)))


@router.get("/accounts/lookup")
async def lookup(
    request: Request, people: PeopleDep, user: ReadAccounts, acct: Annotated[str, Query()]
) -> JSONResponse:
    username, _, domain = acct.removeprefix("@").partition("@")
    if domain and domain != request.url.hostname:
        raise NotFound("Record not found")  # no federation: only local accounts exist
    view = await people.profile(user, (await people.lookup(user, username)).profile.id)
    return JSONResponse(entities.account(view.profile, base_url(request)))


@router.get("/accounts/relationships")
async def relationships(request: Request, people: PeopleDep, user: ReadFollows) -> JSONResponse:
    found = []
    for value in many(list(request.query_params.multi_items()), "id"):
        account_id = entry_id(value, "id")
        if account_id is None:
            continue
        try:
            view = await people.profile(user, account_id)
        except NotFound:
            continue  # gone, or blocks the viewer: Mastodon leaves it out
        found.append(entities.relationship(account_id, view.relation))
    return JSONResponse(found)


@router.get("/accounts/search")
async def search_accounts(
    request: Request,
    people: PeopleDep,
    user: ReadAccounts,
    q: Annotated[str, Query(min_length=1, max_length=100)],
    limit: Limit = DEFAULT_LIMIT,
) -> JSONResponse:
    page = await people.search(user, q.removeprefix("@"), clamp(limit), None)
    return JSONResponse([entities.account(p.profile, base_url(request)) for p in page.people])


@router.get("/accounts/{user_id}")
async def get_account(
    request: Request, account_id: AccountId, people: PeopleDep, user: ReadAccounts
) -> JSONResponse:
    view = await people.profile(user, account_id)
    return JSONResponse(entities.account(view.profile, base_url(request)))


@router.get("/accounts/{user_id}/statuses")
async def account_statuses(
    request: Request,
    account_id: AccountId,
    posts: AuthorPostsDep,
    user: ReadStatuses,
    window: Window,
    exclude_replies: bool = False,
    exclude_reblogs: bool = False,
    only_media: bool = False,
    pinned: bool = False,
) -> JSONResponse:
    if pinned:
        return JSONResponse([])  # nothing is pinned: we have no pins

    async def fetch(cursor: str | None, limit: int) -> FeedPage:
        return await posts.page(user, account_id, limit, cursor)

    items = [
        item
        for item in await window.items(fetch)
        if not (exclude_replies and item.post.replies_to_other)
        and not (exclude_reblogs and item.repost_id is not None)
        and not (only_media and not item.post.shown_media)
    ]
    return window.render(request, items)


@router.get("/accounts/{user_id}/followers")
async def followers(
    request: Request,
    account_id: AccountId,
    people: PeopleDep,
    user: ReadAccounts,
    limit: Limit = 40,
    max_id: str | None = None,
) -> JSONResponse:
    page = await people.followers(user, account_id, clamp(limit), max_id)
    return people_page(request, page)


@router.get("/accounts/{user_id}/following")
async def following(
    request: Request,
    account_id: AccountId,
    people: PeopleDep,
    user: ReadAccounts,
    limit: Limit = 40,
    max_id: str | None = None,
) -> JSONResponse:
    page = await people.following(user, account_id, clamp(limit), max_id)
    return people_page(request, page)


@router.get("/blocks")
async def blocks(
    request: Request,
    people: PeopleDep,
    user: ReadBlocks,
    limit: Limit = 40,
    max_id: str | None = None,
) -> JSONResponse:
    return people_page(request, await people.blocking(user, clamp(limit), max_id))


@router.get("/mutes")
async def mutes(
    request: Request,
    people: PeopleDep,
    user: ReadMutes,
    limit: Limit = 40,
    max_id: str | None = None,
) -> JSONResponse:
    return people_page(request, await people.muting(user, clamp(limit), max_id))


def people_page(request: Request, page: PeoplePage) -> JSONResponse:
    # Our people lists page by a cursor: the Link header carries it as max_id.
    base = base_url(request)
    return paged(
        request, [entities.account(p.profile, base) for p in page.people], page.next_cursor
    )


Change = Callable[[Relations, int, int], Awaitable[bool]]


async def _relationship(people: People, user: int, account_id: int) -> JSONResponse:
    view = await people.profile(user, account_id)
    return JSONResponse(entities.relationship(account_id, view.relation))


@router.post("/accounts/{user_id}/follow")
async def follow(
    account_id: AccountId,
    params: Params,
    relations: RelationsDep,
    people: PeopleDep,
    user: WriteFollows,
) -> JSONResponse:
    await relations.follow(user, account_id, flag(params, "reblogs"))
    return await _relationship(people, user, account_id)


def _relation_route(path: str, change: Change, scope: str) -> None:
    needs = scoped(scope)

    async def route(
        account_id: AccountId,
        relations: RelationsDep,
        people: PeopleDep,
        user: int = Depends(needs),
    ) -> JSONResponse:
        await change(relations, user, account_id)
        return await _relationship(people, user, account_id)

    router.add_api_route(f"/accounts/{{user_id}}/{path}", route, methods=["POST"])


_relation_route("unfollow", Relations.unfollow, "write:follows")
_relation_route("block", Relations.block, "write:blocks")
_relation_route("unblock", Relations.unblock, "write:blocks")
_relation_route("mute", Relations.mute, "write:mutes")
_relation_route("unmute", Relations.unmute, "write:mutes")
