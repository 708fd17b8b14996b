"""Errors as RFC 9457 problem details (application/problem+json).

Each domain error class maps to a status and a problem type once, here; lookup walks
the class's MRO, so a subclass inherits its parent's mapping unless it has its own.
An unreachable database is no domain error (the store's driver raises it, anywhere):
the composition root says which errors are one, and they answer 503 with Retry-After.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from feedloom.api.batch_rows import BatchTooLarge
from feedloom.bootstrap import STORE_OUTAGE_TYPES, is_store_outage
from feedloom.domain.errors import (
    BadCursor,
    Conflict,
    FeedloomError,
    Forbidden,
    IdempotencyMismatch,
    InvalidInput,
    NotFound,
    NotShareable,
    RateLimited,
    SessionExpired,
    Unauthorized,
    Unavailable,
    UpstreamFailed,
    UpstreamTimeout,
)
from feedloom.logs import request_id

log = logging.getLogger(__name__)
PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://feedloom.dev/problems/"

PROBLEMS: dict[type[FeedloomError], tuple[int, str, str]] = {
    FeedloomError: (400, "bad-request", "Bad request"),
    InvalidInput: (422, "invalid-input", "Invalid input"),
    # Well formed, and not permitted for this post (its visibility): 403, not 422.
    NotShareable: (403, "not-shareable", "Only public posts can be shared"),
    BadCursor: (400, "bad-cursor", "Malformed cursor"),
    NotFound: (404, "not-found", "Not found"),
    Forbidden: (403, "forbidden", "Forbidden"),
    Unauthorized: (401, "unauthorized", "Authentication required"),
    Conflict: (409, "conflict", "Conflict"),
    # The request is well formed; what it conflicts with is the one the key names.
    IdempotencyMismatch: (409, "idempotency-key-reused", "Idempotency-Key reused"),
    RateLimited: (429, "rate-limited", "Too many requests"),
    SessionExpired: (410, "feed-session-expired", "Feed session expired"),
    Unavailable: (503, "unavailable", "Service unavailable"),
    # An outside service (a feed generator) failed or is slow: nothing of ours is down.
    UpstreamFailed: (502, "upstream-failed", "The outside service failed"),
    UpstreamTimeout: (504, "upstream-timeout", "The outside service did not answer in time"),
    BatchTooLarge: (413, "payload-too-large", "Payload too large"),
}

STORE_RETRY_AFTER_S = 2  # a restarted or failed-over database is back within seconds

HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
HTTP_TYPES = {
    400: "bad-request",
    401: "unauthorized",
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
}


def problem(status: int, kind: str, title: str, detail: str, **extra: Any) -> JSONResponse:
    body = {"type": TYPE_BASE + kind, "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def lookup_problem(error: FeedloomError) -> tuple[int, str, str]:
    """The status, problem type and title of a domain error (the Mastodon-compatible
    surface renders the same status its own way: api/mastodon/errors.py)."""
    for cls in type(error).__mro__:
        if cls in PROBLEMS:
            return PROBLEMS[cls]
    return PROBLEMS[FeedloomError]


def problem_body(error: FeedloomError) -> dict[str, Any]:
    """The problem an error is, as a body's part (a batch row's error)."""
    status, kind, title = lookup_problem(error)
    return {"type": TYPE_BASE + kind, "title": title, "status": status, "detail": error.detail}


async def _domain_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, FeedloomError)
    status, kind, title = lookup_problem(error)
    response = problem(status, kind, title, error.detail)
    if isinstance(error, RateLimited | Unavailable):
        response.headers["Retry-After"] = str(error.retry_after_s)
    if isinstance(error, RateLimited) and error.limit is not None:
        # draft-ietf-httpapi-ratelimit-headers, the three-field form (docs/CLIENT_API.md)
        response.headers["RateLimit-Limit"] = str(error.limit)
        response.headers["RateLimit-Remaining"] = str(error.remaining)
        response.headers["RateLimit-Reset"] = str(error.retry_after_s)
    if isinstance(error, Unauthorized):
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


async def _store_outage(request: Request, error: Exception) -> JSONResponse:
    if not is_store_outage(error):
        raise error  # a bug, not an outage: the 500 handler logs it
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    log.warning("database unavailable (%s: %s): answered 503", type(error).__name__, reason)
    unavailable = Unavailable("the database is unreachable; retry shortly", STORE_RETRY_AFTER_S)
    return await _domain_error(request, unavailable)


async def _validation_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = [
        {
            "loc": [str(part) for part in item.get("loc", ())],
            "msg": item.get("msg", ""),
            "type": item.get("type", ""),
        }
        for item in error.errors()
    ]
    if any(item["type"] == "json_invalid" for item in errors):
        return problem(
            400, "malformed-json", "Malformed JSON", "the request body is not valid JSON"
        )
    detail = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors)
    return problem(422, "invalid-input", "Invalid input", detail, errors=errors)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    kind = HTTP_TYPES.get(error.status_code, "http-error")
    response = problem(
        error.status_code, kind, kind.replace("-", " ").capitalize(), str(error.detail)
    )
    for name, value in (error.headers or {}).items():
        response.headers[name] = value
    if error.status_code == 405:
        response.headers["Allow"] = ", ".join(allowed_methods(request))
    return response


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path: Starlette's own Allow names only
    the first route that matched the path, and GET and PATCH /v1/me are two routes."""
    routes = request.app.router.routes
    return [
        method
        for method in HTTP_METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes
        )
    ]


async def _unexpected(_request: Request, error: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=error)
    response = problem(500, "internal", "Internal error", "something went wrong on our side")
    # Starlette renders this outside every middleware, so the request ID is added here.
    if (rid := request_id.get()) is not None:
        response.headers["X-Request-ID"] = rid
    return response


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(FeedloomError, _domain_error)
    for outage in STORE_OUTAGE_TYPES:
        app.add_exception_handler(outage, _store_outage)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
    build = app.build_middleware_stack

    def keeping_connections() -> ASGIApp:
        return AnsweredErrors(build())

    app.build_middleware_stack = keeping_connections  # type: ignore[method-assign]


class AnsweredErrors:
    """Ends an unexpected error once its 500 is sent, so the connection lives on.

    Starlette's error middleware sends the 500 (`_unexpected`, which logs the
    traceback) and then raises the error again, for the server; uvicorn, seeing an
    error after a response began, closes the connection, and a client's next request
    on that keep-alive connection failed. An error raised before any answer, or in the
    middle of one, still reaches the server, which must close a half-sent response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answered = False

        async def watched(message: Message) -> None:
            nonlocal answered
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                answered = True

        try:
            await self.app(scope, receive, watched)
        except Exception:
            if not answered:
                raise
