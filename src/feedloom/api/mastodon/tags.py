"""Trends and hashtags: GET /api/v1/trends/statuses and /trends/tags (the trending use
cases of GET /v1/trending and /v1/trending/tags, over the last day), GET
/api/v1/tags/{name}, POST /api/v1/tags/{name}/follow|unfollow and GET
/api/v1/followed_tags (TagPages and FollowTags, as /v1/tags and /v1/me/tags).

Trends page by `offset` as Mastodon's do, down to the depth our trending sketches rank
(TRENDS_DEPTH). A trending tag's `history` is one day, today: `accounts` is the distinct
authors who used it in the last 24 hours (the sketch's count, approximate) and `uses`
the same number, since we count authors, not uses (a lower bound). Other tags have no
history: we keep no daily counts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import FollowTagsDep, TagPagesDep, TrendingDep, TrendingTagsDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import ReadFollows, ReadStatuses, WriteFollows
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import DEFAULT_LIMIT, Limit, clamp, paged
from feedloom.domain.facets import tag_name
from feedloom.read.tags import TagPages
from feedloom.write.tag_follows import FollowTags

router = APIRouter(prefix="/v1")
WINDOW = "24h"  # Mastodon's trends are the day's
TRENDS_DEPTH = 100  # the most /v1/trending serves: deeper offsets find nothing
TAG_TRENDS_LIMIT, TAG_TRENDS_MAX = 10, 20  # Mastodon's default and maximum for tags
FOLLOWED_LIMIT = 100  # one page holds every followed tag (at most 100: FOLLOWED_TAGS)
Offset = Annotated[int, Query(ge=0)]


def _window(offset: int, limit: int) -> int:
    """How many ranked entries to read for this page (0: past the depth)."""
    return max(0, min(offset + limit, TRENDS_DEPTH) - offset)


def _offset_page(
    request: Request, body: list[entities.Json], offset: int, limit: int
) -> JSONResponse:
    full = len(body) == limit and offset + limit < TRENDS_DEPTH
    return paged(request, body, str(offset + limit) if full else None, next_name="offset")


@router.get("/trends/statuses")
async def trending_statuses(
    request: Request,
    trending: TrendingDep,
    user: ReadStatuses,
    limit: Limit = DEFAULT_LIMIT,
    offset: Offset = 0,
) -> JSONResponse:
    limit = clamp(limit)
    if not _window(offset, limit):
        return JSONResponse([])
    items = (await trending.page(user, WINDOW, offset + _window(offset, limit)))[offset:]
    base = base_url(request)
    return _offset_page(request, [entities.status(item, base) for item in items], offset, limit)


@router.get("/trends/tags")
async def trending_tags(
    request: Request,
    trending: TrendingTagsDep,
    tags: TagPagesDep,
    user: ReadStatuses,
    limit: Limit = TAG_TRENDS_LIMIT,
    offset: Offset = 0,
) -> JSONResponse:
    limit = min(limit, TAG_TRENDS_MAX)
    if not _window(offset, limit):
        return JSONResponse([])
    found = (await trending.page(WINDOW, offset + _window(offset, limit)))[offset:]
    followed = await _followed_names(tags, user)
    base, today = base_url(request), _today()
    body = [
        entities.tag(
            tag.name,
            base,
            tag.name in followed,
            [{"day": today, "uses": str(round(tag.authors)), "accounts": str(round(tag.authors))}],
        )
        for tag in found
    ]
    return _offset_page(request, body, offset, limit)


@router.get("/tags/{name}")
async def get_tag(
    request: Request, name: str, tags: TagPagesDep, user: ReadStatuses
) -> JSONResponse:
    return await _tag(request, tags, user, name)


Change = Callable[[FollowTags, int, str], Awaitable[bool]]


def _follow_route(path: str, change: Change) -> None:
    """POST /api/v1/tags/{name}/{path}: the change (idempotent), then the Tag."""

    async def route(
        request: Request, name: str, follows: FollowTagsDep, tags: TagPagesDep, user: WriteFollows
    ) -> JSONResponse:
        await change(follows, user, name)
        return await _tag(request, tags, user, name)

    router.add_api_route(f"/tags/{{name}}/{path}", route, methods=["POST"])


_follow_route("follow", FollowTags.follow)
_follow_route("unfollow", FollowTags.unfollow)


@router.get("/followed_tags")
async def followed_tags(
    request: Request,
    tags: TagPagesDep,
    user: ReadFollows,
    limit: Limit = FOLLOWED_LIMIT,
    max_id: str | None = None,
) -> JSONResponse:
    """Most recently followed first. The whole list is one read (at most 100 tags), so
    `max_id` is the last tag's name on the page before, not a row ID."""
    names = [view.name for view in await tags.followed(user)]
    if max_id:
        after = tag_name(max_id)
        names = names[names.index(after) + 1 :] if after in names else []
    page = names[: min(limit, FOLLOWED_LIMIT)]
    more = len(names) > len(page)
    base = base_url(request)
    body = [entities.tag(name, base, True) for name in page]
    return paged(request, body, page[-1] if more else None)


async def _tag(request: Request, tags: TagPages, user: int, name: str) -> JSONResponse:
    view = await tags.tag(user, name)
    return JSONResponse(entities.tag(view.name, base_url(request), view.followed_by_me))


async def _followed_names(tags: TagPages, user: int) -> set[str]:
    return {view.name for view in await tags.followed(user)}


def _today() -> str:
    """Today's UTC midnight as Unix seconds: how Mastodon names a day of history."""
    now = datetime.now(UTC)
    return str(int(datetime(now.year, now.month, now.day, tzinfo=UTC).timestamp()))
