"""The limits a reverse proxy would set, in the HTTP server `feedloom serve` runs, so the
service sheds abuse even with nothing in front of it: a request head over
`max_header_bytes` is answered 431, a head that does not arrive within
`header_timeout_s` (slowloris) or a body that pauses longer than `body_timeout_s` 408,
a connection past `max_connections` 503; an idle kept-alive connection is closed after
`keep_alive_s` (uvicorn's own timer). Protocol-level errors are problem+json too.

Why a subclass of uvicorn's httptools protocol: uvicorn has a keep-alive timeout and a
concurrency limit, but no header size limit for httptools (llhttp buffers a header of
any size), no timer at all while a request head or body is being read, and its
concurrency limit counts requests, not the connections a slowloris holds open. The
subclass adds those at the transport level: it counts head bytes as they arrive
(before llhttp buffers them) and runs one timer for the head and one for the body.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from feedloom.api.problems import PROBLEM_JSON, TYPE_BASE
from feedloom.settings import HttpSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ParserLimits:
    max_header_bytes: int
    header_timeout_s: float
    body_timeout_s: float
    max_connections: int

    @classmethod
    def of(cls, http: HttpSettings) -> ParserLimits:
        return cls(
            http.max_header_bytes, http.header_timeout_s, http.body_timeout_s, http.max_connections
        )


def limited_protocol(limits: ParserLimits) -> type[HttpToolsProtocol]:
    """The protocol class to hand uvicorn (`Config(http=...)`) for these limits."""
    return type("LimitedHttpToolsProtocol", (LimitedHttpToolsProtocol,), {"limits": limits})


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    limits: ClassVar[ParserLimits]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # between a request's first byte (or the connect) and its headers
        self._head_bytes = 0  # bytes received while in the head (a chunk may hold more)
        self._head_size = 0  # the request line and headers themselves
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    # -- the connection --------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            detail = f"this server holds at most {self.limits.max_connections} connections"
            self._refuse(503, "too-many-connections", detail, retry_after="1")
            return
        self._arm_head_timer()  # a connection that never sends a byte is closed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # Counted before llhttp sees (and buffers) them, so a head that never ends is
        # refused once the limit is crossed; a head that ends in this chunk is measured
        # exactly in on_headers_complete instead (the chunk may hold a body too).
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._in_head and self._head_bytes > self.limits.max_header_bytes:
            self._refuse_large_head()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to what llhttp cannot parse, as problem+json."""
        self._refuse(400, "bad-request", "the request is not valid HTTP/1.1")

    # -- parser callbacks: where a head and a body begin and end ------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head, self._head_size = True, 0
        self._arm_head_timer()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._head_size += len(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self._head_size += len(name) + len(value) + 4  # ": " and CRLF

    def on_headers_complete(self) -> None:
        if self._head_size > self.limits.max_header_bytes:
            self._refuse_large_head()
            raise HeadTooLarge  # stops llhttp: no app runs, no body is read
        self._in_head, self._head_bytes = False, 0
        self._cancel(self._head_timer)
        self._head_timer = None
        super().on_headers_complete()
        self._arm_body_timer()

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        self._arm_body_timer()  # the timeout is a pause between pieces, not the whole body

    def on_message_complete(self) -> None:
        self._cancel(self._body_timer)
        self._body_timer = None
        super().on_message_complete()

    # -- timers ------------------------------------------------------------------------

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:  # one deadline per head, not reset by each byte
            self._head_timer = self.loop.call_later(
                self.limits.header_timeout_s, self._head_timed_out
            )

    def _arm_body_timer(self) -> None:
        self._cancel(self._body_timer)
        self._body_timer = self.loop.call_later(self.limits.body_timeout_s, self._body_timed_out)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        detail = f"the request head must arrive within {self.limits.header_timeout_s:g} s"
        self._refuse(408, "request-timeout", detail)

    def _body_timed_out(self) -> None:
        self._body_timer = None
        if self.flow.read_paused:  # the app is not reading yet: the wait is ours, not theirs
            self._arm_body_timer()
            return
        detail = f"the request body paused longer than {self.limits.body_timeout_s:g} s"
        self._refuse(408, "request-timeout", detail)

    def _cancel_timers(self) -> None:
        for timer in (self._head_timer, self._body_timer):
            self._cancel(timer)
        self._head_timer = self._body_timer = None

    @staticmethod
    def _cancel(timer: asyncio.TimerHandle | None) -> None:
        if timer is not None:
            timer.cancel()

    # -- answering and closing ------------------------------------------------------------

    def _refuse(self, status: int, kind: str, detail: str, retry_after: str | None = None) -> None:
        """Answer with a problem and close, or just close when an answer cannot be put
        in between (a response to an earlier request, or to this one, is under way)."""
        self._cancel_timers()
        if self.transport.is_closing():
            return
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        log.info("refused %s: %d %s (%s)", client, status, kind, detail)
        if self._may_answer():
            self.transport.write(problem_response(status, kind, detail, retry_after))
            if self.cycle is not None and not self.cycle.response_complete:
                # The app still reading this body is told the client left: nothing it
                # answers can follow ours.
                self.cycle.disconnected = True
                self.cycle.message_event.set()
        self.transport.close()

    def _refuse_large_head(self) -> None:
        limit = self.limits.max_header_bytes
        self._refuse(431, "headers-too-large", f"request heads are limited to {limit} bytes")

    def _may_answer(self) -> bool:
        if self.cycle is None:
            return True
        if self._in_head:  # the cycle is the previous request's
            return self.cycle.response_complete
        return not self.cycle.response_started


class HeadTooLarge(Exception):
    """Raised in a parser callback: httptools stops and reports a parser error, which
    finds the connection already answered and closing."""


def problem_response(status: int, kind: str, detail: str, retry_after: str | None) -> bytes:
    title = STATUS_LINE[status].decode().split(" ", 2)[2].strip()
    body = json.dumps(
        {"type": TYPE_BASE + kind, "title": title, "status": status, "detail": detail}
    ).encode()
    headers = [
        f"content-type: {PROBLEM_JSON}",
        f"content-length: {len(body)}",
        "connection: close",
        "x-content-type-options: nosniff",
        *([f"retry-after: {retry_after}"] if retry_after else []),
    ]
    return STATUS_LINE[status] + "".join(f"{h}\r\n" for h in headers).encode() + b"\r\n" + body
