"""A webhook receiver on 127.0.0.1 for tests: records each request; answers with the
status (and after the delay) a test sets per path."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    port: int
    received: list[Received] = field(default_factory=list)
    answers: dict[str, list[tuple[int, float]]] = field(default_factory=dict)  # path -> queue

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def on(self, path: str, *answers: tuple[int, float]) -> None:
        """The next answers at `path`, in order (status, delay in seconds); then 200s."""
        self.answers[path] = list(answers)

    def at(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


@contextlib.contextmanager
def receiver() -> Iterator[Receiver]:
    state = Receiver(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            queue = state.answers.get(self.path, [])
            status, delay = queue.pop(0) if queue else (200, 0.0)
            if delay:
                time.sleep(delay)
            headers = {k.lower(): v for k, v in self.headers.items()}
            state.received.append(Received(self.path, headers, body, time.monotonic()))
            with contextlib.suppress(OSError):
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
