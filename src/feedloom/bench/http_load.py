"""A lean keep-alive HTTP/1.1 client for the timed loops of the HTTP benches.

The client shares the 2 cores with the server it measures, so every microsecond it
spends per request is taken from the server. httpx builds a request object, a URL, a
header set and a response object per call; here a request is a ready-made byte string
written to an open connection, and the response is parsed by httptools (llhttp, in
C; uvicorn's parser) into a status and the body's bytes, which the caller decodes
after the timed loop. Connections are opened before timing and kept open.

Two load shapes drive the connections: `closed_loop` (each connection sends its next
request as soon as the last reply is in: the throughput the server sustains) and
`paced` (requests due at a fixed rate, each timed from when it was due, not from when
a connection was free to send it, so a server that falls behind shows it in the
latencies instead of slowing the client down: no coordinated omission).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httptools

CLOSE_TIMEOUT_S = 10.0


class ConnectionLost(ConnectionError):
    """The server closed the connection before the response was complete."""


class _Exchange(asyncio.Protocol):
    """One connection, one request at a time."""

    def __init__(self) -> None:
        self._parser = httptools.HttpResponseParser(self)
        self._transport: asyncio.Transport | None = None
        self._body: list[bytes] = []
        self._reply: asyncio.Future[tuple[int, bytes]] | None = None
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not subclass asyncio.Transport, but have its methods.
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self._parser.feed_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        if self._reply is not None and not self._reply.done():
            self._reply.set_exception(ConnectionLost(str(exc or "closed by the server")))

    # httptools callbacks
    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        if self._reply is not None and not self._reply.done():
            self._reply.set_result((self._parser.get_status_code(), b"".join(self._body)))

    async def send(self, request: bytes) -> tuple[int, bytes]:
        if self._transport is None or self._transport.is_closing():
            raise ConnectionLost("not connected")
        self._body = []
        self._reply = asyncio.get_running_loop().create_future()
        self._transport.write(request)
        return await self._reply

    async def close(self) -> None:
        """Close, and wait until the loop has let go of the connection."""
        if self._transport is not None:
            self._transport.close()
            await asyncio.wait_for(self.closed, CLOSE_TIMEOUT_S)


class LeanConnection:
    """GET requests over one kept-alive connection to a loopback server."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._exchange: _Exchange | None = None

    async def __aenter__(self) -> LeanConnection:
        loop = asyncio.get_running_loop()
        _, self._exchange = await loop.create_connection(_Exchange, self._host, self._port)
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._exchange is not None:
            await self._exchange.close()

    def get_request(self, target: str, headers: dict[str, str]) -> bytes:
        """The bytes of `GET target`, built once and sent as often as wanted."""
        lines = [f"GET {target} HTTP/1.1", f"Host: {self._host}:{self._port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def send(self, request: bytes) -> tuple[int, bytes]:
        """Status and body of the response to one request from `get_request`."""
        if self._exchange is None:
            raise ConnectionLost("not connected")
        return await self._exchange.send(request)


@dataclass
class Load:
    """What one pass of requests got: the replies in request order, each request's
    latency, and the wall time of the pass."""

    replies: list[tuple[int, bytes]]
    latencies_s: list[float]
    wall_s: float


async def closed_loop(connections: Sequence[LeanConnection], requests: Sequence[bytes]) -> Load:
    replies: list[tuple[int, bytes]] = [(0, b"")] * len(requests)
    latencies: list[float] = []
    pending = iter(range(len(requests)))

    async def client(connection: LeanConnection) -> None:
        for n in pending:  # shared: each request is taken by one connection
            started = time.perf_counter()
            replies[n] = await connection.send(requests[n])
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(client(connection) for connection in connections))
    return Load(replies, latencies, time.perf_counter() - started)


async def paced(
    connections: Sequence[LeanConnection], requests: Sequence[bytes], rate: float
) -> Load:
    """Request n is due `n / rate` seconds after the start; it waits for a free
    connection if none is, and its latency runs from when it was due."""
    if rate <= 0:
        raise ValueError("the rate must be positive")
    replies: list[tuple[int, bytes]] = [(0, b"")] * len(requests)
    latencies: list[float] = []
    free: asyncio.Queue[LeanConnection] = asyncio.Queue()
    for connection in connections:
        free.put_nowait(connection)

    async def one(n: int, due: float) -> None:
        connection = await free.get()
        try:
            replies[n] = await connection.send(requests[n])
        finally:
            free.put_nowait(connection)
        latencies.append(time.perf_counter() - due)

    started = time.perf_counter()
    sent: list[asyncio.Task[None]] = []
    for n in range(len(requests)):
        due = started + n / rate
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        sent.append(asyncio.ensure_future(one(n, due)))
    await asyncio.gather(*sent)
    return Load(replies, latencies, time.perf_counter() - started)
