"""One Redis connection that many batches share: each batch is written whole, and its
replies are matched to it in order as they arrive.

Redis answers the commands of one connection in the order it received them, so
batches need no connection each: the next one is written while earlier ones wait for
their replies, and a batch whose caller gave up (cancelled) still has its replies read
and dropped, so the ones behind it stay aligned. An `asyncio.Protocol` with hiredis'
reader does this with no stream objects, no per-reply coroutine and no pool checkout:
measured here, two round trips of five commands cost ~135 µs wall and ~95 µs of client
CPU this way, against ~290 µs of both through redis-py's connection (docs/BENCHMARKS.md,
"What each trick bought"). redis-py stays the client; this replaces only the socket under the
automatic pipeline's batches (autopipeline.py).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import hiredis
from redis._parsers.base import BaseParser
from redis._parsers.encoders import Encoder
from redis.exceptions import ConnectionError, InvalidResponse
from redis.exceptions import TimeoutError as RedisTimeoutError

CONNECT_TIMEOUT_S = 5.0
_ENCODER = Encoder("utf-8", "strict", decode_responses=False)  # type: ignore[no-untyped-call]


def _pack(args: Sequence[Any]) -> bytes:
    """One command in RESP: redis-py names some commands in two words ("CLIENT ID")."""
    first = args[0]
    words = first.split() if isinstance(first, (str, bytes)) else [first]
    command = (*words, *args[1:])
    try:
        packed: bytes = hiredis.pack_command(command)
    except TypeError:  # a type hiredis does not pack (memoryview, bool...): redis-py's way
        packed = hiredis.pack_command(tuple(_ENCODER.encode(arg) for arg in command))  # type: ignore[no-untyped-call]
    return packed


@dataclass(frozen=True)
class Address:
    """Where and how to connect: a TCP host and port, or a Unix socket path."""

    host: str = "127.0.0.1"
    port: int = 6379
    path: str | None = None
    db: int = 0
    username: str | None = None
    password: str | None = None
    encoding: str | None = None  # set when the client decodes replies to str
    connect_timeout_s: float = CONNECT_TIMEOUT_S

    @classmethod
    def of(cls, kwargs: dict[str, Any]) -> Address:
        """From a redis-py connection pool's connection_kwargs."""
        return cls(
            host=kwargs.get("host", "127.0.0.1"),
            port=int(kwargs.get("port", 6379)),
            path=kwargs.get("path"),
            db=int(kwargs.get("db") or 0),
            username=kwargs.get("username"),
            password=kwargs.get("password"),
            encoding=kwargs.get("encoding", "utf-8") if kwargs.get("decode_responses") else None,
            connect_timeout_s=kwargs.get("socket_connect_timeout") or CONNECT_TIMEOUT_S,
        )


class _Pending:
    __slots__ = ("expected", "future", "replies")

    def __init__(self, expected: int, future: asyncio.Future[list[Any]]) -> None:
        self.replies: list[Any] = []
        self.expected = expected
        self.future = future


class _Protocol(asyncio.Protocol):
    def __init__(self, encoding: str | None) -> None:
        kwargs: dict[str, Any] = {
            "protocolError": InvalidResponse,
            "replyError": BaseParser.parse_error,  # NoScriptError, ... as redis-py raises
        }
        if encoding is not None:
            kwargs["encoding"] = encoding
        self._reader = hiredis.Reader(**kwargs)
        self._pending: deque[_Pending] = deque()
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        reader, pending = self._reader, self._pending
        reader.feed(data)
        try:
            while (reply := reader.gets()) is not False:
                waiting = pending[0]  # Redis sends nothing unasked on RESP2
                waiting.replies.append(reply)
                if len(waiting.replies) == waiting.expected:
                    pending.popleft()
                    if not waiting.future.done():  # a cancelled caller's replies are dropped
                        waiting.future.set_result(waiting.replies)
        except (InvalidResponse, IndexError) as error:  # a stream we cannot follow
            self._fail(ConnectionError(f"unreadable reply from Redis: {error!r}"))
            if self.transport is not None:
                self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        reason = f": {exc}" if exc else ""
        self._fail(ConnectionError(f"Connection to Redis lost{reason}"))

    def _fail(self, error: BaseException) -> None:
        self.lost = error
        while self._pending:
            waiting = self._pending.popleft()
            if not waiting.future.done():
                waiting.future.set_exception(error)

    def send(self, packed: bytes, expected: int) -> asyncio.Future[list[Any]]:
        assert self.transport is not None
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(expected, future))
        self.transport.write(packed)
        return future


class MultiplexedConnection:
    """Batches of commands over one kept connection; (re)connects when it has none."""

    def __init__(self, address: Address, socket_timeout_s: float | None = None) -> None:
        self._address, self._timeout = address, socket_timeout_s
        self._protocol: _Protocol | None = None
        self._connecting: asyncio.Future[_Protocol] | None = None

    async def execute(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        """Each command's reply, a command's own error as its value (ResponseError).
        Raises ConnectionError or TimeoutError when the connection fails: every batch
        then waiting on it gets the same error, and the next batch reconnects. A
        connection found closed before the batch is written is replaced first."""
        protocol = self._protocol
        if protocol is None or protocol.lost is not None or protocol.transport is None:
            protocol = await self._connected()
        packed = b"".join([_pack(args) for args in commands])
        future = protocol.send(packed, len(commands))
        if self._timeout is None:
            return await future
        try:
            async with asyncio.timeout(self._timeout):
                return await future
        except TimeoutError:
            self._drop(protocol)  # the replies still owed would misalign the next batch
            raise RedisTimeoutError("Timeout reading from Redis") from None

    async def close(self) -> None:
        if self._protocol is not None:
            self._drop(self._protocol)

    def _drop(self, protocol: _Protocol) -> None:
        if self._protocol is protocol:
            self._protocol = None
        if protocol.transport is not None:
            protocol.transport.abort()  # connection_lost fails whatever still waits

    async def _connected(self) -> _Protocol:
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._connect())
            self._connecting.add_done_callback(self._connected_or_not)
        return await asyncio.shield(self._connecting)

    def _connected_or_not(self, attempt: asyncio.Future[_Protocol]) -> None:
        self._connecting = None
        if not attempt.cancelled() and attempt.exception() is None:
            self._protocol = attempt.result()

    async def _connect(self) -> _Protocol:
        address, loop = self._address, asyncio.get_running_loop()
        try:
            async with asyncio.timeout(address.connect_timeout_s):
                if address.path is not None:
                    _, protocol = await loop.create_unix_connection(
                        lambda: _Protocol(address.encoding), address.path
                    )
                else:
                    _, protocol = await loop.create_connection(
                        lambda: _Protocol(address.encoding), address.host, address.port
                    )
                await self._hello(protocol)
        except (OSError, TimeoutError) as error:
            raise ConnectionError(
                f"Error connecting to Redis at {address.path or f'{address.host}:{address.port}'}:"
                f" {error!r}"
            ) from error
        return protocol

    async def _hello(self, protocol: _Protocol) -> None:
        """What redis-py's connection does on connect, for the settings feedloom uses."""
        address, setup = self._address, list[tuple[Any, ...]]()
        if address.password is not None:
            auth = [address.username] if address.username else []
            setup.append(("AUTH", *auth, address.password))
        if address.db:
            setup.append(("SELECT", address.db))
        if not setup:
            return
        packed = b"".join([_pack(command) for command in setup])
        for reply in await protocol.send(packed, len(setup)):
            if isinstance(reply, Exception):
                if protocol.transport is not None:
                    protocol.transport.abort()
                raise reply
