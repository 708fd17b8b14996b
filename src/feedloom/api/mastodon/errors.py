"""Errors on the Mastodon-compatible surface as its clients expect them: `{"error":
"…"}` with the status `/v1` would answer (api/problems.py maps each domain error once;
this surface renders the same mapping its own way)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from feedloom.api.problems import STORE_RETRY_AFTER_S, lookup_problem
from feedloom.bootstrap import STORE_OUTAGE_TYPES, is_store_outage
from feedloom.domain.errors import FeedloomError, RateLimited, Unauthorized, Unavailable

log = logging.getLogger(__name__)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _domain(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, FeedloomError)
    status, _, _ = lookup_problem(exc)
    headers = {}
    if isinstance(exc, RateLimited | Unavailable):
        headers["Retry-After"] = str(exc.retry_after_s)
    if isinstance(exc, Unauthorized):
        headers["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return error(status, exc.detail, headers)


async def _outage(request: Request, exc: Exception) -> JSONResponse:
    if not is_store_outage(exc):
        raise exc
    log.warning("database unavailable (%s): answered 503", type(exc).__name__)
    unavailable = Unavailable("the database is unreachable; retry shortly", STORE_RETRY_AFTER_S)
    return await _domain(request, unavailable)


async def _validation(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    parts = [
        f"{'.'.join(str(p) for p in item.get('loc', ()) if p not in ('body', 'query'))}: "
        f"{item.get('msg', '')}"
        for item in exc.errors()
    ]
    return error(422, "Validation failed: " + "; ".join(parts))


async def _http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    message = "Record not found" if exc.status_code == 404 else str(exc.detail)
    return error(exc.status_code, message, dict(exc.headers or {}))


async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return error(500, "something went wrong on our side")


def install_errors(app: FastAPI) -> None:
    app.add_exception_handler(FeedloomError, _domain)
    for outage in STORE_OUTAGE_TYPES:
        app.add_exception_handler(outage, _outage)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)
