"""Mastodon's paging parameters and RFC 8288 `Link` headers: `rel="next"` pages older
(`max_id` = the page's last entry), `rel="prev"` newer (`min_id` = its first)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import JSONResponse

from feedloom.domain.errors import InvalidInput
from feedloom.domain.ids import parse_id

DEFAULT_LIMIT, MAX_LIMIT = 20, 40
Limit = Annotated[int, Query(ge=1)]


def clamp(limit: int) -> int:
    """Mastodon caps a too-large limit rather than refusing it."""
    return min(limit, MAX_LIMIT)


def entry_id(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return parse_id(value)
    except ValueError as error:
        raise InvalidInput(f"{name} must be an ID") from error


def paged(
    request: Request,
    body: object,
    next_value: str | None,
    prev_value: str | None = None,
    next_name: str = "max_id",
) -> JSONResponse:
    links = []
    if next_value is not None:
        links.append(f'<{_url(request, next_name, next_value)}>; rel="next"')
    if prev_value is not None:
        links.append(f'<{_url(request, "min_id", prev_value)}>; rel="prev"')
    headers = {"Link": ", ".join(links)} if links else None
    return JSONResponse(body, headers=headers)


def _url(request: Request, name: str, value: str) -> str:
    url = request.url.remove_query_params(["max_id", "min_id", "since_id"])
    return str(url.include_query_params(**{name: value}))
