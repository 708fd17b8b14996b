"""A lean keep-alive HTTP/1.1 client for the timed loops of the HTTP benches.

The client shares the 2 cores with the server it measures, so every microsecond it
spends per request is taken from the server. httpx builds a request object, a URL, a
header set and a response object per call; here a request is a ready-made byte string
written to an open connection, and the response is parsed by httptools (llhttp, in
C; uvicorn's parser) into a status and the body's bytes, which the caller decodes
after the timed loop. Connections are opened before timing and kept open.
"""

from __future__ import annotations

import asyncio
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
