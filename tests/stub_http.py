"""A tiny HTTP/1.1 server on 127.0.0.1 for outbound-call tests (generators, webhooks).

Each request goes to an async handler that returns (status, headers, body), may sleep,
and is recorded; a header given as "" is left out (content-length of a chunked body).
One connection per request (Connection: close), no framework."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit


@dataclass
class StubRequest:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes


Reply = tuple[int, dict[str, str], bytes]
Handler = Callable[[StubRequest], Awaitable[Reply]]


@dataclass
class StubServer:
    port: int
    requests: list[StubRequest] = field(default_factory=list)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@asynccontextmanager
async def stub_server(handler: Handler) -> AsyncIterator[StubServer]:
    stub = StubServer(0)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {
                name.strip().lower(): value.strip()
                for name, _, value in (line.partition(":") for line in lines[1:] if line)
            }
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            parts = urlsplit(target)
            request = StubRequest(method, parts.path, dict(parse_qsl(parts.query)), headers, body)
            stub.requests.append(request)
            status, reply_headers, reply = await handler(request)
            out = [f"HTTP/1.1 {status} X", "connection: close"]
            reply_headers = {"content-length": str(len(reply)), **reply_headers}
            out += [f"{name}: {value}" for name, value in reply_headers.items() if value]
            writer.write(("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + reply)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    stub.port = server.sockets[0].getsockname()[1]
    try:
        yield stub
    finally:
        server.close()
        await server.wait_closed()


def json_reply(body: bytes, status: int = 200) -> Reply:
    return status, {"content-type": "application/json"}, body
