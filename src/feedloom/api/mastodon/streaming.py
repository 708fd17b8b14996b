"""Streaming: SSE `GET /api/v1/streaming/user`, `GET /api/v1/streaming/health`, and the
WebSocket `GET /api/v1/streaming` (`{"type":"subscribe","stream":"user"}`), with the
token by `Authorization`, `Sec-WebSocket-Protocol` or `access_token`.

When the home feed gains a post is the HomeStream of GET /v1/streams/home (its
listeners, its filters, its per-user cap, and so its reach across API and worker
processes through the notice bus); what the post is, is the HomeFeed read above the
last update sent (api/mastodon/windows.py, as `min_id`). Each new entry is an `update`
event whose payload is the Status JSON as a string, oldest first. A new or updated
notification group is the `notification` HomeStream carries for GET /v1/streams/home
(from the worker that folded it, through the same bus), as a Notification JSON string,
for a token that may read notifications. A post deleted or edited is HomeStream's
`changed` (the worker tells the streams of the author's followers when it handles the
outbox's PostDeleted or PostEdited): `delete` with the ID when the reader can no longer
read it, else `status.update` with the Status JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Annotated

import orjson
from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import PlainTextResponse, StreamingResponse
from starlette.websockets import WebSocketDisconnect

from feedloom.api.deps import feedloom_of
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import scoped_session, token_of
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.windows import Paging
from feedloom.bootstrap import Feedloom, Services
from feedloom.domain.errors import FeedloomError, NotFound
from feedloom.domain.ids import lowest_id_at
from feedloom.domain.model import FeedOrder
from feedloom.domain.scopes import covers
from feedloom.read.feed_page import FeedPage
from feedloom.read.timing import StageTimer
from feedloom.write.sessions import CurrentSession

router = APIRouter(prefix="/v1/streaming")
SSE = "text/event-stream"
UPDATES_PER_NOTICE = 40


Event = tuple[str, str] | None  # (Mastodon's event name, its payload); None: a heartbeat


async def updates(
    services: Services, user_id: int, since: int, base: str, notifications: bool
) -> AsyncIterator[Event]:
    """Each home entry above `since` as an `update` (Status JSON), oldest first, as they
    come, and each notification as a `notification` (when `notifications`, the token's
    scope); None for a quiet interval (a heartbeat is due). `since` is the lowest ID of the moment
    the client connected, so an entry made while the stream was still being set up is
    news too (HomeStream counts above it at once). Ends when HomeStream ends the stream
    (its age, a lost listener)."""
    feed, timer = services.home_feed, StageTimer()

    async def fetch(cursor: str | None, limit: int) -> FeedPage:
        return await feed.page(user_id, limit, cursor, timer, FeedOrder.CHRONOLOGICAL)

    shown = since
    async for event in services.home_stream.events(user_id, since, None, changes=True):
        if event.kind == "heartbeat":
            yield None
        elif event.kind == "new-posts":
            fresh = await Paging(UPDATES_PER_NOTICE, None, None, shown).items(fetch)
            for item in reversed(fresh):
                shown = max(shown, item.entry_id)
                yield "update", orjson.dumps(entities.status(item, base)).decode()
        elif event.kind == "changed" and event.newest_id is not None:
            yield await _changed(services, user_id, event.newest_id, base)
        elif event.kind == "notification" and notifications and event.notification:
            # None: the marker moved, or a type Mastodon has no name for.
            rendered = entities.notification(event.notification, base)
            if rendered is not None:
                yield "notification", orjson.dumps(rendered).decode()


async def _changed(services: Services, user_id: int, post_id: int, base: str) -> Event:
    """A post deleted (or no longer visible to the reader): `delete` with its ID; else
    edited: `status.update` with the Status as the reader sees it now."""
    try:
        item = await services.author_posts.post(user_id, post_id)
    except NotFound:
        return "delete", str(post_id)
    return "status.update", orjson.dumps(entities.status(item, base)).decode()


def connected_at(services: Feedloom) -> int:
    """The lowest entry ID of now: what a stream opened now counts as news."""
    return lowest_id_at(services.runtime.clock()) - 1


@router.get("/health")
async def health() -> PlainTextResponse:
    return PlainTextResponse("OK")


def reads_notifications(scopes: frozenset[str] | None) -> bool:
    return scopes is None or covers(scopes, "read:notifications")


@router.get("/user")
async def user_stream(
    request: Request,
    session: Annotated[CurrentSession, Depends(scoped_session("read:statuses"))],
) -> StreamingResponse:
    services: Services = feedloom_of(request).services
    services.home_stream.check_room(session.user_id)
    since, base = connected_at(feedloom_of(request)), base_url(request)
    events = updates(services, session.user_id, since, base, reads_notifications(session.scopes))
    return StreamingResponse(
        _sse(events),
        media_type=SSE,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _sse(events: AsyncIterator[Event]) -> AsyncIterator[bytes]:
    yield b":)\n\n"  # the response starts at once: the client knows it is listening
    async for event in events:
        if event is None:
            yield b":thump\n\n"
        else:
            name, payload = event
            yield f"event: {name}\ndata: ".encode() + payload.encode() + b"\n\n"


@router.websocket("")
async def websocket_stream(websocket: WebSocket) -> None:
    protocol = websocket.headers.get("sec-websocket-protocol")
    token = token_of(websocket) or (protocol.split(",")[0].strip() if protocol else None)
    services: Services = websocket.app.state.feedloom.services
    try:
        if token is None:
            raise FeedloomError("no access token")
        session = await services.auth.session(token)
        if session.scopes is not None and not covers(session.scopes, "read:statuses"):
            raise FeedloomError("outside the authorized scopes")
        services.home_stream.check_room(session.user_id)
    except FeedloomError:
        await websocket.close(code=1008)  # before accepting: the handshake is refused
        return
    since = connected_at(websocket.app.state.feedloom)
    await websocket.accept(subprotocol=protocol.split(",")[0].strip() if protocol else None)
    base = str(websocket.base_url).replace("ws", "http", 1).rstrip("/")
    pump: asyncio.Task[None] | None = None

    def subscribe() -> None:
        nonlocal pump
        if pump is None:
            notified = reads_notifications(session.scopes)
            events = updates(services, session.user_id, since, base, notified)
            pump = asyncio.create_task(_pump(websocket, events))

    if websocket.query_params.get("stream") == "user":
        subscribe()
    try:
        while True:
            message = await websocket.receive_json()
            if not isinstance(message, dict):
                continue
            if message.get("type") == "subscribe" and message.get("stream") == "user":
                subscribe()
            elif message.get("type") == "unsubscribe" and pump is not None:
                pump.cancel()
                pump = None
    except (WebSocketDisconnect, ValueError):
        pass
    finally:
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump


async def _pump(websocket: WebSocket, events: AsyncIterator[Event]) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        async for event in events:
            if event is not None:
                name, payload = event
                message = {"stream": ["user"], "event": name, "payload": payload}
                await websocket.send_text(orjson.dumps(message).decode())
        await websocket.close()
