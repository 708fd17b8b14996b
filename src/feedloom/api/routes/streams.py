"""New-post notices, pushed: POST /v1/streams/tickets and GET /v1/streams/home (SSE).

A browser EventSource cannot send an Authorization header, so it opens
`/v1/streams/home?ticket=…` with a short-lived ticket; other clients may send the
bearer token instead. Events:

    event: new-posts
    id: <newest post ID>
    data: {"count": 3, "newest_id": "…"}

and a `: heartbeat` comment when nothing happens. EventSource reconnects by itself
and sends Last-Event-ID; the stream then sends what it missed, if anything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated

import orjson
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from feedloom.api.deps import CurrentUser, HomeStreamDep, StreamTicketsDep, current_session
from feedloom.api.routes.notifications import render
from feedloom.api.schemas import example
from feedloom.domain.errors import InvalidInput
from feedloom.domain.ids import ID, parse_id
from feedloom.domain.patterns import whole
from feedloom.read.home_stream import StreamEvent

router = APIRouter(prefix="/v1/streams", tags=["feed"])
SSE = "text/event-stream"


class TicketOut(BaseModel):
    model_config = example(
        {
            "ticket": "7291543817012345.1796131200.9f2c6a0e",
            "expires_at": "2026-12-01T12:05:00Z",
            "url": "/v1/streams/home?ticket=7291543817012345.1796131200.9f2c6a0e",
        }
    )

    ticket: str
    expires_at: datetime
    url: str


ID_OR_EMPTY = {"pattern": whole(f"|{ID}")}  # what `_id_or_none` takes


@router.post("/tickets", status_code=201, response_model=TicketOut)
async def create_ticket(tickets: StreamTicketsDep, user_id: CurrentUser) -> TicketOut:
    """A ticket that opens your home stream for the next few minutes: for EventSource,
    which cannot send the bearer token."""
    ticket = tickets.issue(user_id)
    url = f"/v1/streams/home?ticket={ticket.value}"
    return TicketOut(ticket=ticket.value, expires_at=ticket.expires_at, url=url)


@router.get(
    "/home",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "Server-Sent Events, until the client goes away",
            "content": {
                SSE: {
                    "example": "event: new-posts\\nid: 7291544012345678\\n"
                    'data: {"count":3,"newest_id":"7291544012345678"}\\n\\n'
                }
            },
        }
    },
)
async def home_stream(
    request: Request,
    stream: HomeStreamDep,
    tickets: StreamTicketsDep,
    ticket: Annotated[str | None, Query(max_length=128, description="from POST …/tickets")] = None,
    since: Annotated[
        str | None,
        Query(
            max_length=20,
            description="count posts newer than this ID",
            json_schema_extra=ID_OR_EMPTY,
        ),
    ] = None,
    last_event_id: Annotated[
        str | None, Header(max_length=20, json_schema_extra=ID_OR_EMPTY)
    ] = None,
) -> StreamingResponse:
    """Pushes an event each time your home feed gains a post you would see, with the
    count above `since` (default: what is there when the stream opens) and the newest
    ID; and a `notification` event each time your notifications change (the unread
    count and the new or updated group). Authenticate with `?ticket=` or the bearer
    token."""
    if ticket is not None:
        user_id = tickets.redeem(ticket)
    else:
        user_id = (await current_session(request)).user_id
    stream.check_room(user_id)
    events = stream.events(
        user_id, _id_or_none("since", since), _id_or_none("Last-Event-ID", last_event_id)
    )
    return StreamingResponse(
        _sse(events),
        media_type=SSE,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _sse(events: AsyncIterator[StreamEvent]) -> AsyncIterator[bytes]:
    async for event in events:
        if event.kind == "ready":  # the first bytes: from now on, no post is missed
            yield b"retry: 3000\n\n"
            continue
        if event.kind == "notification":  # no `id`: Last-Event-ID stays a post ID
            item = event.notification
            data = orjson.dumps(
                {
                    "unread_count": event.count,
                    "notification": None if item is None else render(item).model_dump(mode="json"),
                }
            )
            yield b"event: notification\ndata: %s\n\n" % data
            continue
        if event.kind == "heartbeat" or event.newest_id is None:
            yield b": heartbeat\n\n"
            continue
        data = orjson.dumps({"count": event.count, "newest_id": str(event.newest_id)})
        yield b"event: new-posts\nid: %d\ndata: %s\n\n" % (event.newest_id, data)


def _id_or_none(name: str, value: str | None) -> int | None:
    if value is None or value == "":
        return None
    try:
        return parse_id(value)
    except ValueError as error:
        raise InvalidInput(f"{name}: {error}") from error
