"""HTTP/1.1 spoken by hand, for tests that must see the connection itself: whether the
server closed it, and that the next request goes over the same one (httpx would open
a new connection and hide it)."""

from __future__ import annotations

import asyncio
import json
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

WAIT_S = 30.0
PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def problem(self) -> dict[str, object]:
        assert self.headers["content-type"] == PROBLEM_JSON, self
        body: dict[str, object] = json.loads(self.body)
        return body

    def json(self) -> object:
        return json.loads(self.body)


def head(path: str = "/healthz", *extra: str, method: str = "GET") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: feedloom", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    extra = [f"{name}: {value}" for name, value in headers.items()]
    if body or method in ("POST", "PUT", "PATCH"):
        extra.append(f"Content-Length: {len(body)}")
    return head(path, *extra, method=method) + body


def parse_head(raw_head: bytes) -> tuple[int, dict[str, str]]:
    status_line, *lines = raw_head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    return int(status_line.split()[1]), headers


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return socket.create_connection((parts.hostname, parts.port), timeout=WAIT_S)


def read_answer(sock: socket.socket) -> Answer:
    """One response, read as far as its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    raw_head, body = data.split(b"\r\n\r\n", 1)
    status, headers = parse_head(raw_head)
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, "closed inside a body"
        body += chunk
    return Answer(status, headers, body)


class KeptAlive:
    """One connection, every request on it in turn (asyncio, so a test can run servers
    or proxies on its own event loop meanwhile)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer

    @classmethod
    async def open(cls, url: str) -> KeptAlive:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        return cls(*await asyncio.open_connection(parts.hostname, parts.port))

    async def send(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Answer:
        self._writer.write(request(method, path, headers or {}, body))
        await self._writer.drain()
        async with asyncio.timeout(WAIT_S):
            try:
                raw_head = await self._reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as closed:
                raise AssertionError(f"the server closed the connection: {closed}") from None
            status, found = parse_head(raw_head[:-4])
            content = await self._reader.readexactly(int(found.get("content-length", "0")))
        assert found.get("connection") != "close", (status, found)
        return Answer(status, found, content)

    async def close(self) -> None:
        self._writer.close()
        await self._writer.wait_closed()
