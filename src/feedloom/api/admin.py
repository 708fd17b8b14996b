"""Who may read /metrics and /readyz: a bearer token, a separate admin port, or both.

Both are operator surfaces: /metrics tells the traffic and backlog of the service and
/readyz queries the store on every call, so neither belongs on the public internet.
`FEEDLOOM_METRICS_TOKEN` makes /metrics answer 401 without `Authorization: Bearer`
that token (Prometheus sends it with `authorization: {credentials: …}`).
`FEEDLOOM_ADMIN_PORT` moves /metrics and /readyz to an admin app on that port (bind it
to a private interface with `FEEDLOOM_ADMIN_HOST`); the public app answers 404 for
them. /healthz stays on both: a load balancer's liveness check needs nothing else.
A worker process has no public app; with an admin port it serves the same admin app,
so its fan-out metrics can be scraped too.
"""

from __future__ import annotations

import hmac

from fastapi import FastAPI
from pydantic import SecretStr
from starlette.datastructures import State
from starlette.types import ASGIApp, Receive, Scope, Send

from feedloom.api.observability import Observability
from feedloom.api.problems import install_problem_handlers, problem
from feedloom.api.routes import health
from feedloom.api.security_headers import install_security_headers
from feedloom.settings import Settings

METRICS_PATH = "/metrics"
ADMIN_PATHS = frozenset({METRICS_PATH, "/readyz"})


def guard_admin_paths(app: FastAPI, settings: Settings) -> None:
    """On the public app: hide the admin paths when they have a port of their own, and
    ask for the token on /metrics when one is set. Nothing is added when neither is."""
    if settings.admin_port is not None or settings.metrics_token is not None:
        app.add_middleware(
            AdminGuard, token=settings.metrics_token, hidden=settings.admin_port is not None
        )


def create_admin_app(state: State, settings: Settings) -> FastAPI:
    """/healthz, /readyz and /metrics for the admin port, over `state.feedloom`.

    The API passes its app's state, so the admin app reads the Feedloom the API's
    lifespan builds and needs no lifespan of its own (serve it with `lifespan="off"`);
    a worker passes a state holding its own Feedloom."""
    admin = FastAPI(title="feedloom admin", openapi_url=None, docs_url=None, redoc_url=None)
    admin.state = state
    install_problem_handlers(admin)
    admin.include_router(health.router)
    if settings.metrics_token is not None:
        admin.add_middleware(AdminGuard, token=settings.metrics_token, hidden=False)
    admin.add_middleware(Observability, metrics=lambda: state.feedloom.metrics)
    install_security_headers(admin, settings.http, cors=False)
    return admin


class AdminGuard:
    """404 for the admin paths where they are hidden; 401 for /metrics without the token."""

    def __init__(self, app: ASGIApp, token: SecretStr | None, hidden: bool) -> None:
        self.app = app
        self.token = None if token is None else token.get_secret_value().encode()
        self.hidden = hidden

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path")
        if scope["type"] != "http" or path not in ADMIN_PATHS:
            await self.app(scope, receive, send)
        elif self.hidden:
            await problem(404, "not-found", "Not found", f"no resource at {path}")(
                scope, receive, send
            )
        elif path == METRICS_PATH and not self._authorized(scope["headers"]):
            response = problem(
                401,
                "unauthorized",
                "Authentication required",
                "send `Authorization: Bearer <token>` with the metrics token",
            )
            response.headers["WWW-Authenticate"] = "Bearer"
            await response(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _authorized(self, headers: list[tuple[bytes, bytes]]) -> bool:
        if self.token is None:
            return True
        for name, value in headers:
            if name == b"authorization":
                scheme, _, credentials = value.partition(b" ")
                # Constant time, so the token cannot be guessed byte by byte.
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    credentials.strip(), self.token
                )
        return False
