"""The benches' lean HTTP client (bench/http_load.py) against a real uvicorn server:
keep-alive requests in turn, each reply whole (fixed length or chunked), its status,
and a server that goes away mid-reply is an error, never a short body; the closed-loop
and paced load shapes send each request once and keep the replies in request order."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.responses import StreamingResponse

from feedloom.bench.http_load import ConnectionLost, LeanConnection, closed_loop, paced
from tests.integration.test_admin_port import free_port, started


def echo_app() -> FastAPI:
    app = FastAPI()

    @app.get("/echo")
    async def echo(request: Request) -> Response:
        token = request.headers.get("authorization", "")
        return Response(content=f"{request.url.query}|{token}".encode(), status_code=200)

    @app.get("/missing")
    async def missing() -> Response:
        return Response(content=b'{"detail":"no"}', status_code=404)

    @app.get("/chunked")
    async def chunked() -> StreamingResponse:
        async def parts() -> AsyncIterator[bytes]:
            for part in (b"one,", b"two,", b"three"):
                yield part

        return StreamingResponse(parts())

    return app


@pytest.fixture
async def server_url() -> AsyncIterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(echo_app(), port=port, log_config=None))
    task = asyncio.create_task(server.serve())
    await started(server)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 60)


async def test_requests_in_turn_on_one_connection_get_their_own_whole_replies(
    server_url: str,
) -> None:
    async with LeanConnection(server_url) as connection:
        first = connection.get_request("/echo?n=1", {"Authorization": "Bearer a"})
        second = connection.get_request("/echo?n=2", {"Authorization": "Bearer b"})
        replies = [await connection.send(request) for request in (first, second, first)]
        missing = await connection.send(connection.get_request("/missing", {}))
        chunked = await connection.send(connection.get_request("/chunked", {}))

    assert replies == [(200, b"n=1|Bearer a"), (200, b"n=2|Bearer b"), (200, b"n=1|Bearer a")]
    assert missing == (404, b'{"detail":"no"}')
    assert chunked == (200, b"one,two,three")


async def test_a_server_that_closes_mid_reply_is_an_error_not_a_short_body() -> None:
    async def half_reply(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(half_reply, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server, LeanConnection(f"http://127.0.0.1:{port}") as connection:
        with pytest.raises(ConnectionLost):
            await connection.send(connection.get_request("/", {}))


@contextlib.asynccontextmanager
async def connections(url: str, count: int) -> AsyncIterator[list[LeanConnection]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(LeanConnection(url)) for _ in range(count)]


async def test_a_closed_loop_sends_every_request_once_and_keeps_their_order(
    server_url: str,
) -> None:
    async with connections(server_url, 3) as open_connections:
        requests = [open_connections[0].get_request(f"/echo?n={n}", {}) for n in range(20)]
        load = await closed_loop(open_connections, requests)

    assert load.replies == [(200, f"n={n}|".encode()) for n in range(20)]
    assert len(load.latencies_s) == 20


async def test_paced_requests_are_never_sent_ahead_of_their_rate(server_url: str) -> None:
    async with connections(server_url, 2) as open_connections:
        requests = [open_connections[0].get_request(f"/echo?n={n}", {}) for n in range(11)]
        load = await paced(open_connections, requests, rate=50.0)

    assert load.replies == [(200, f"n={n}|".encode()) for n in range(11)]
    # The last request is due 10 / 50 s after the first: however loaded the machine,
    # the pass cannot be shorter (it may be longer).
    assert load.wall_s >= 10 / 50
    assert len(load.latencies_s) == 11 and min(load.latencies_s) > 0


async def test_a_rate_must_be_positive(server_url: str) -> None:
    async with connections(server_url, 1) as open_connections:
        with pytest.raises(ValueError, match="positive"):
            await paced(open_connections, [], rate=0)
