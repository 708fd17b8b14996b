"""The outermost HTTP layer: a request ID on every response and log line, and per-route
request counts and latency.

A pure ASGI middleware (no BaseHTTPMiddleware: that one runs the app in another task
and copies every body), because the feed read is a hot path. Per request it does a
header scan, one small closure, one list for the response headers and two dict
lookups; the labelled metric children are looked up once per (route, method,
status) and kept.

Routes are labelled by their template (`/v1/posts/{post_id}`, read from the route
Starlette matched) and anything unmatched by one `unmatched` label, so a scan of
random URLs cannot multiply series; methods outside the HTTP verbs count as `OTHER`.
(The template is the matched route's own path, so routers carry their prefix in
`APIRouter(prefix=...)`, as ours do, rather than in `include_router(prefix=...)`.)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from time import perf_counter

from prometheus_client.metrics import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from feedloom.logs import request_id
from feedloom.metrics import Metrics

REQUEST_ID_HEADER = b"x-request-id"
# Bounded and plain enough to log and echo as is: UUIDs, hex or base64 trace IDs.
_SAFE_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:=+/-]{1,128}")
UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def new_request_id() -> str:
    # Not a secret, only unique: 128 random bits, without a system call per request.
    return random.randbytes(16).hex()


def incoming_request_id(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """The client's (or the proxy's) X-Request-ID, if it is one we can safely reuse."""
    for name, value in headers:
        if name == REQUEST_ID_HEADER:
            return value if _SAFE_REQUEST_ID.fullmatch(value) else None
    return None


class Observability:
    """Tags the request with an ID (kept from the client when sane) and records it.

    `metrics` is asked for the app's Metrics on each request, because the lifespan
    builds them after the middleware exists; before that, nothing is recorded.
    """

    def __init__(self, app: ASGIApp, metrics: Callable[[], Metrics]) -> None:
        self.app = app
        self._metrics_of = metrics
        self._instruments: _RouteInstruments | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = perf_counter()
        raw = incoming_request_id(scope["headers"])
        rid = raw.decode("ascii") if raw is not None else new_request_id()
        header = (REQUEST_ID_HEADER, raw if raw is not None else rid.encode("ascii"))
        status = 500  # what the client gets if the app fails before answering

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        token = request_id.set(rid)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._record(scope, status, perf_counter() - started)
        # Reset only when the app returned: on an error Starlette's ServerErrorMiddleware,
        # outside this one, logs it and renders the 500 after it propagates, and both
        # should still carry the ID (the variable lives in the request's task context).
        request_id.reset(token)

    def _record(self, scope: Scope, status: int, elapsed: float) -> None:
        try:
            metrics = self._metrics_of()
        except AttributeError:  # no backend yet: the lifespan has not run
            return
        instruments = self._instruments
        if instruments is None or instruments.metrics is not metrics:
            instruments = self._instruments = _RouteInstruments(metrics)
        route = getattr(scope.get("route"), "path_format", UNMATCHED)
        method = scope["method"]
        instruments.record(route, method if method in METHODS else "OTHER", status, elapsed)


class _RouteInstruments:
    """Labelled children of the HTTP metrics, looked up once per label set: the label
    values are all bounded (route templates, verbs, status codes)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def record(self, route: str, method: str, status: int, elapsed: float) -> None:
        key = (route, method, status)
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (
                self.metrics.http_requests.labels(route, method, str(status)),
                self.metrics.http_latency.labels(route, method),
            )
        children[0].inc()
        children[1].observe(elapsed)
