"""Reading a Server-Sent Events response from the ASGI app while it streams (httpx's
ASGITransport waits for the whole body, which an event stream never finishes)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI


@dataclass
class SseStream:
    status: int
    headers: dict[str, str]
    _chunks: asyncio.Queue[bytes]
    _buffer: bytes = b""
    events: list[dict[str, str]] = field(default_factory=list)

    async def next_event(self, timeout_s: float, kind: str = "new-posts") -> dict[str, str]:
        """The next event of this kind (heartbeats are comments, skipped)."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while True:
            while b"\n\n" in self._buffer:
                frame, self._buffer = self._buffer.split(b"\n\n", 1)
                event = _parse(frame.decode())
                if event:
                    self.events.append(event)
                    if event.get("event") == kind:
                        return event
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no {kind} event within {timeout_s} s")
            self._buffer += await asyncio.wait_for(self._chunks.get(), left)

    async def ready(self, timeout_s: float, marker: bytes = b"retry:") -> None:
        while marker not in self._buffer:
            self._buffer += await asyncio.wait_for(self._chunks.get(), timeout_s)

    async def heartbeat(self, timeout_s: float) -> None:
        deadline = asyncio.get_running_loop().time() + timeout_s
        while b": heartbeat\n\n" not in self._buffer:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError("no heartbeat")
            self._buffer += await asyncio.wait_for(self._chunks.get(), left)
        self._buffer = self._buffer.replace(b": heartbeat\n\n", b"", 1)


def _parse(frame: str) -> dict[str, str]:
    event: dict[str, str] = {}
    for line in frame.splitlines():
        if line.startswith(":") or ":" not in line:
            continue
        name, _, value = line.partition(":")
        event[name] = value.removeprefix(" ")
    return event


@contextlib.asynccontextmanager
async def open_stream(
    app: FastAPI,
    path: str,
    params: dict[str, str],
    headers: dict[str, str],
    ready: bytes = b"retry:",
) -> AsyncIterator[SseStream]:
    """The stream, once `ready` (what the stream sends first) has come."""
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    started: asyncio.Future[tuple[int, dict[str, str]]] = asyncio.Future()
    disconnect = asyncio.Event()
    requested = False

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            decoded = {k.decode().lower(): v.decode() for k, v in message["headers"]}
            started.set_result((message["status"], decoded))
        elif message["type"] == "http.response.body":
            chunks.put_nowait(message.get("body", b""))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": urlencode(params).encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1234),
        "server": ("test", 80),
        "state": dict(getattr(app.state, "_state", {})),
    }
    task = asyncio.create_task(app(scope, receive, send))
    try:
        status, response_headers = await asyncio.wait_for(started, 10)
        stream = SseStream(status, response_headers, chunks)
        if status == 200:
            await stream.ready(10, ready)  # listening: a post from now on must be noticed
        yield stream
    finally:
        disconnect.set()
        try:
            await asyncio.wait_for(task, 10)
        except TimeoutError:
            task.cancel()
