"""GET /api/v2/search: accounts (People.search) and statuses (SearchPosts, newest
first), the use cases of GET /v1/search, in Mastodon's Search shape. The first page
only: `offset` past 0 finds nothing more (our searches page by cursor, Mastodon's by
offset)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import PeopleDep, SearchPostsDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import ReadSearch
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import DEFAULT_LIMIT, Limit, clamp
from feedloom.domain.search import MAX_QUERY, SearchOrder

router = APIRouter()


@router.get("/v2/search")
async def search(
    request: Request,
    people: PeopleDep,
    posts: SearchPostsDep,
    user: ReadSearch,
    q: Annotated[str, Query(min_length=1, max_length=MAX_QUERY)],
    type: Literal["accounts", "statuses", "hashtags"] | None = None,
    limit: Limit = DEFAULT_LIMIT,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> JSONResponse:
    base, limit = base_url(request), clamp(limit)
    accounts, statuses = [], []
    if offset == 0 and type in (None, "accounts"):
        found = await people.search(user, q.removeprefix("@"), limit, None)
        accounts = [entities.account(person.profile, base) for person in found.people]
    if offset == 0 and type in (None, "statuses"):
        page = await posts(user, q, SearchOrder.NEWEST, limit, None)
        statuses = [entities.status(item, base) for item in page.items]
    return JSONResponse({"accounts": accounts, "statuses": statuses, "hashtags": []})
