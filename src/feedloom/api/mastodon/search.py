"""GET /api/v2/search: accounts (People.search), statuses (SearchPosts, newest first)
and hashtags (SearchTags, most used first), the use cases of GET /v1/search, in
Mastodon's Search shape.

Mastodon clients page a search by `offset`; ours page by cursor, so a page past the
first walks the cursor pages from the top, at most MAX_WALKED results deep (past
that it finds nothing). `following=true` keeps the accounts the user follows among
those walked. `resolve` is accepted and changes nothing: every account is local, there
is nothing remote to look up. `account_id` (one account's statuses) is refused: our
post search has no author filter."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import PeopleDep, SearchPostsDep, SearchTagsDep, TagPagesDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import ReadSearch
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import DEFAULT_LIMIT, MAX_LIMIT, Limit, clamp
from feedloom.domain.errors import InvalidInput
from feedloom.domain.model import FeedItem
from feedloom.domain.search import MAX_QUERY, SearchOrder
from feedloom.ports import TagRecord
from feedloom.read.people import Person

router = APIRouter()
T = TypeVar("T")
Fetch = Callable[[str | None, int], Awaitable[tuple[list[T], str | None]]]
MAX_WALKED = 400  # results read to serve one page: offset 360 with limit 40 at most


async def walk(
    fetch: Fetch[T], offset: int, limit: int, keep: Callable[[T], bool] = lambda _: True
) -> list[T]:
    """Results `offset` to `offset + limit` of those kept, reading cursor pages from the
    top until enough are kept, the results end, or MAX_WALKED were read."""
    kept: list[T] = []
    cursor: str | None = None
    walked = 0
    while len(kept) < offset + limit and walked < MAX_WALKED:
        want = min(MAX_LIMIT, offset + limit - len(kept), MAX_WALKED - walked)
        found, cursor = await fetch(cursor, want)
        walked += len(found)
        kept += [result for result in found if keep(result)]
        if cursor is None or not found:
            break
    return kept[offset : offset + limit]


@router.get("/v2/search")
async def search(
    request: Request,
    people: PeopleDep,
    posts: SearchPostsDep,
    tags_found: SearchTagsDep,
    tags: TagPagesDep,
    user: ReadSearch,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY)],
    type: Literal["accounts", "statuses", "hashtags"] | None = None,
    limit: Limit = DEFAULT_LIMIT,
    offset: Annotated[int, Query(ge=0)] = 0,
    resolve: bool = False,
    following: bool = False,
    account_id: str | None = None,
) -> JSONResponse:
    del resolve  # nothing is remote: a local account or post is found without it
    if account_id:
        raise InvalidInput("account_id: searching one account's statuses is not supported")
    base, limit = base_url(request), clamp(limit)
    body: dict[str, list[entities.Json]] = {"accounts": [], "statuses": [], "hashtags": []}
    if type in (None, "accounts"):

        async def people_page(cursor: str | None, want: int) -> tuple[list[Person], str | None]:
            page = await people.search(user, q.removeprefix("@"), want, cursor)
            return page.people, page.next_cursor

        found = await walk(
            people_page, offset, limit, lambda person: not following or person.followed_by_me
        )
        body["accounts"] = [entities.account(person.profile, base) for person in found]
    if type in (None, "statuses"):

        async def posts_page(cursor: str | None, want: int) -> tuple[list[FeedItem], str | None]:
            page = await posts(user, q, SearchOrder.NEWEST, want, cursor)
            return page.items, page.next_cursor

        body["statuses"] = [
            entities.status(item, base) for item in await walk(posts_page, offset, limit)
        ]
    if type in (None, "hashtags"):

        async def tags_page(cursor: str | None, want: int) -> tuple[list[TagRecord], str | None]:
            page = await tags_found(q, want, cursor)
            return page.items, page.next_cursor

        found_tags = await walk(tags_page, offset, limit)
        followed = {view.name for view in await tags.followed(user)} if found_tags else set()
        body["hashtags"] = [
            entities.tag(tag.name, base, tag.name in followed) for tag in found_tags
        ]
    return JSONResponse(body)
