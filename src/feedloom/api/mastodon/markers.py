"""GET|POST /api/v1/markers: where the reader's apps last read their home timeline and
their notifications (the Markers use case; the notifications marker is the read marker
of POST /v1/notifications/read)."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import MarkersDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import ReadStatuses, WriteStatuses
from feedloom.api.mastodon.forms import Pairs, many, one, params_of
from feedloom.api.mastodon.paging import entry_id
from feedloom.ports import Marker

router = APIRouter(prefix="/v1/markers")
Params = Annotated[Pairs, Depends(params_of)]


@router.get("")
async def get_markers(request: Request, markers: MarkersDep, user: ReadStatuses) -> JSONResponse:
    timelines = many(list(request.query_params.multi_items()), "timeline")
    return _render(await markers.get(user, timelines))


@router.post("")
async def set_markers(params: Params, markers: MarkersDep, user: WriteStatuses) -> JSONResponse:
    home, notifications = _last_read(params, "home"), _last_read(params, "notifications")
    return _render(await markers.set(user, home, notifications))


def _last_read(params: Pairs, timeline: str) -> int | None:
    """`home[last_read_id]` (a form), or `{"home": {"last_read_id": …}}` (JSON)."""
    value = one(params, f"{timeline}[last_read_id]")
    nested = one(params, timeline)
    if value is None and nested is not None:
        try:
            found = orjson.loads(nested)
        except orjson.JSONDecodeError:
            found = None
        if isinstance(found, dict):
            value = found.get("last_read_id")
    return entry_id(str(value), f"{timeline}[last_read_id]") if value is not None else None


def _render(found: dict[str, Marker]) -> JSONResponse:
    return JSONResponse({name: entities.marker(marker) for name, marker in found.items()})
