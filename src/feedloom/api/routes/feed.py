"""GET /v1/feed: the home timeline. Parses, calls one use case, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api.deps import BackendDep, CurrentUser, Cursor
from feedloom.api.schemas import Item, Page
from feedloom.read.home_timeline import home_timeline
from feedloom.read.timing import StageTimer

router = APIRouter(prefix="/v1", tags=["feed"])


@router.get("/feed", response_model=Page)
async def get_feed(
    backend: BackendDep,
    reader: CurrentUser,
    response: Response,
    cursor: Cursor = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> Page:
    timer = StageTimer()
    page = await home_timeline(
        backend, reader, limit or backend.settings.feed.default_limit, cursor, timer
    )
    with timer.stage("render"):
        body = Page(
            items=[Item.of(i) for i in page.items], next_cursor=page.next_cursor, order=page.order
        )
    backend.metrics.feed_latency.labels(page.order.value).observe(timer.total())
    response.headers["Server-Timing"] = timer.header()
    return body
