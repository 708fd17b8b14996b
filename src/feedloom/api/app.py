"""create_app: the FastAPI application. The lifespan opens the composition root from Settings,
optionally seeds demo data and runs the worker in-process (embedded default)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from fastapi import FastAPI
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from feedloom import __version__
from feedloom.api.admin import guard_admin_paths
from feedloom.api.docs import install_docs
from feedloom.api.forwarded import TrustedProxies
from feedloom.api.mastodon import install_mastodon
from feedloom.api.mastodon.media import FORM_UPLOADS, MULTIPART_SLACK
from feedloom.api.nul_guard import NulGuard
from feedloom.api.observability import Observability
from feedloom.api.openapi import install_openapi, operation_id
from feedloom.api.problems import install_problem_handlers, problem
from feedloom.api.routes import (
    accounts,
    app_actions,
    apps,
    feed,
    generators,
    health,
    limits,
    lists,
    media,
    moderation,
    notices,
    notifications,
    own_lists,
    people,
    posts,
    saved_feeds,
    search,
    streams,
    suggestions,
    tags,
    trending,
    users,
)
from feedloom.api.security_headers import install_security_headers
from feedloom.api.web import install_web
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.settings import Settings

UNCOMPRESSED = (*DEFAULT_EXCLUDED_CONTENT_TYPES, "image/*", "application/octet-stream")

# Runs for the app's lifetime next to it (e.g. the demo's seeding and ticker).
Companion = Callable[[Feedloom], AbstractAsyncContextManager[None]]


def create_app(
    settings: Settings,
    *,
    inline_worker: bool = True,
    companion: Companion | None = None,
) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_feedloom(settings) as feedloom:
            app.state.feedloom = feedloom
            for mounted in surfaces:
                mounted.state.feedloom = feedloom
            worker = feedloom.services.worker
            stop = asyncio.Event()
            # Without an inline worker, this process still flushes its own like counts.
            background = worker.run(stop) if inline_worker else worker.run_counter_flusher(stop)
            task = asyncio.create_task(background)
            try:
                async with contextlib.AsyncExitStack() as extras:
                    if companion is not None:
                        await extras.enter_async_context(companion(feedloom))
                    yield
            finally:
                stop.set()
                await task

    app = FastAPI(
        title="feedloom",
        version=__version__,
        description="News-feed service: hybrid push/pull fan-out, cursor-paged home timelines.",
        lifespan=lifespan,
        # Both defaults load Swagger UI / ReDoc from a CDN: api/docs.py serves its own.
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=operation_id,
    )
    install_problem_handlers(app)
    install_openapi(app, settings)
    install_docs(app)
    # A request is matched against the routers in this order, so the hottest come
    # first (matched after four routers, a feed read spent a tenth of its ASGI time
    # being matched, by py-spy); people before users: /v1/users/search must not be
    # taken for a user ID.
    for module in (
        feed,
        notices,
        posts,
        accounts,
        own_lists,
        people,
        search,
        suggestions,
        users,
        tags,
        trending,
        lists,
        saved_feeds,
        generators,
        notifications,
        streams,
        media,
        moderation,
        apps,
        app_actions,
        limits,
        health,
    ):
        app.include_router(module.router)
    install_web(app, settings, demo=companion is not None)
    surfaces = install_mastodon(app)
    app.add_middleware(FreshReads, scope=lambda: app.state.feedloom.request_scope())
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_body_bytes,
        upload_max_bytes=settings.media_max_bytes,
        batch_max_bytes=settings.apps.batch_max_bytes,
    )
    app.add_middleware(NulGuard)
    # Text above ~1 KB goes gzipped to a client that accepts it; media bytes (already
    # compressed) and event streams (each event must leave at once) never are.
    app.add_middleware(GZipMiddleware, minimum_size=1024, exclude_content_types=UNCOMPRESSED)
    guard_admin_paths(app, settings)
    # Added last, so outermost: rejected and oversized requests get an ID and are counted.
    app.add_middleware(Observability, metrics=lambda: app.state.feedloom.metrics)
    if settings.http.trusted_proxies:
        app.add_middleware(
            TrustedProxies,
            networks=settings.http.trusted_proxies,
            header=settings.http.forwarded_header,
        )
    install_security_headers(app, settings.http)
    return app


STREAMS = ("/v1/streams/", "/api/v1/streaming")


class FreshReads:
    """Opens the composition root's request scope around each read (GET, HEAD): a
    cache that keeps values near makes sure there, once, that the request shows every
    write completed before it began. Writes are left out: a request that writes and
    then reads must see its own write, which the scope opened before it would not. So
    are streams (/v1/streams/…): open for minutes, each of their reads fences itself."""

    def __init__(
        self, app: ASGIApp, scope: Callable[[], contextlib.AbstractContextManager[None]]
    ) -> None:
        self.app, self._scope = app, scope

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or scope["path"].startswith(STREAMS)
        ):
            await self.app(scope, receive, send)
            return
        with self._scope():
            await self.app(scope, receive, send)


class BodySizeLimit:
    """413 for bodies over the limit, whether announced by Content-Length or streamed."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, upload_max_bytes: int, batch_max_bytes: int
    ) -> None:
        self.app = app
        self.json_max_bytes = max_bytes
        self.upload_max_bytes = upload_max_bytes
        self.batch_max_bytes = batch_max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Image uploads (the presigned PUT) may be large; JSON bodies never need to be.
        is_upload = scope["method"] == "PUT" and scope["path"].endswith("/content")
        # The Mastodon-compatible API takes an image in a multipart body (api/mastodon/media.py).
        is_form_upload = (scope["method"], scope["path"]) in FORM_UPLOADS
        limit = self.json_max_bytes
        if is_upload:
            limit = self.upload_max_bytes
        elif is_form_upload:
            limit = self.upload_max_bytes + MULTIPART_SLACK
        elif scope["method"] == "POST" and scope["path"].endswith(":batch"):
            limit = self.batch_max_bytes  # an app's batch of rows (api/batch_rows.py)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > limit:
            await self._reject(scope, receive, send, limit)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._reject(scope, receive, send, limit)

    async def _reject(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(
            413,
            "payload-too-large",
            "Payload too large",
            f"request bodies are limited to {limit} bytes",
        )
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass
