"""Response headers every answer carries, errors and 500s included, and the CORS
allow-list (off unless `http.cors_origins` names origins).

A header a route set itself wins: the web client's page brings its own CSP, /docs one
that allows its inline start-up script. Everything else gets a default, and that
default forbids what an API response never needs (scripts, frames, plugins), so a
user's upload served as the wrong type, or an error page, cannot run anything.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from feedloom.settings import HttpSettings

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
HTML_CSP = (
    "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)
# What a browser page on an allowed origin may send and read (docs/CLIENT_API.md).
CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID"]
CORS_EXPOSED_HEADERS = ["Retry-After", "X-Request-ID", "Location"]


def install_security_headers(app: FastAPI, http: HttpSettings, cors: bool = True) -> None:
    """Wraps the whole middleware stack, Starlette's error middleware included, so an
    unhandled error's 500 gets the headers too. `cors=False`: the admin app, which no
    browser page calls."""
    if cors and http.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=http.cors_origins,
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=CORS_REQUEST_HEADERS,
            expose_headers=CORS_EXPOSED_HEADERS,
            allow_credentials=False,  # bearer tokens, never cookies
            max_age=600,
        )
    build = app.build_middleware_stack

    def with_security_headers() -> ASGIApp:
        return SecurityHeaders(build(), http.hsts_max_age_s)

    app.build_middleware_stack = with_security_headers  # type: ignore[method-assign]


class SecurityHeaders:
    def __init__(self, app: ASGIApp, hsts_max_age_s: int | None) -> None:
        self.app = app
        self.hsts = None if hsts_max_age_s is None else f"max-age={hsts_max_age_s}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                self._add_defaults(MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_secured)

    def _add_defaults(self, headers: MutableHeaders) -> None:
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        is_html = headers.get("content-type", "").startswith("text/html")
        headers.setdefault("Content-Security-Policy", HTML_CSP if is_html else API_CSP)
        if self.hsts is not None:
            headers.setdefault("Strict-Transport-Security", self.hsts)
