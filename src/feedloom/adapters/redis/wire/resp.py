"""One RESP2 connection: commands written whole, replies matched to them in order.

Redis answers the commands of one connection in the order it received them, so many
callers can share it: the next batch is written while earlier ones wait for their
replies, and a batch whose caller gave up (cancelled) still has its replies read and
dropped, so the ones behind it stay aligned. An `asyncio.Protocol` with hiredis' reader
does this with no stream objects, no per-reply coroutine and no pool checkout.

A subscribed connection also receives what nobody asked for (pub/sub messages): those
go to `on_message`. Both the multiplexed connection (multiplexed.py) and the near
cache's invalidation listener (near_cache.py) are one of these.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import hiredis
from redis.exceptions import (
    AskError,
    AuthenticationError,
    BusyLoadingError,
    ClusterDownError,
    ConnectionError,
    DataError,
    ExecAbortError,
    InvalidResponse,
    MovedError,
    NoPermissionError,
    NoScriptError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)

CONNECT_TIMEOUT_S = 5.0
OnMessage = Callable[[list[Any]], None]

# Error replies by their first word, as redis-py raises them (redis.exceptions).
_ERRORS: dict[str, type[Exception]] = {
    "NOSCRIPT": NoScriptError,
    "MOVED": MovedError,
    "ASK": AskError,
    "TRYAGAIN": TryAgainError,
    "CLUSTERDOWN": ClusterDownError,
    "READONLY": ReadOnlyError,
    "LOADING": BusyLoadingError,
    "EXECABORT": ExecAbortError,
    "NOPERM": NoPermissionError,
}
_AUTH_ERRORS = ("NOAUTH", "WRONGPASS")


def reply_error(message: str) -> Exception:
    """An error reply as the exception redis-py raises for it, the first word dropped
    as redis-py drops it (a redirection keeps "slot host:port")."""
    word, _, rest = message.partition(" ")
    if word in _AUTH_ERRORS:
        return AuthenticationError(rest)
    kind = _ERRORS.get(word)
    if kind is None:
        return ResponseError(rest if word == "ERR" else message)
    return kind(rest)


def encoded(arg: Any) -> bytes:
    """One argument as bytes, as redis-py encodes it (no bools: ambiguous)."""
    if isinstance(arg, (bytes, bytearray, memoryview)):
        return bytes(arg)
    if isinstance(arg, str):
        return arg.encode()
    if isinstance(arg, (int, float)) and not isinstance(arg, bool):
        return repr(arg).encode()
    raise DataError(f"Invalid input of type {type(arg).__name__!r} for a Redis command")


def pack(args: Sequence[Any]) -> bytes:
    """One command in RESP: redis-py names some commands in two words ("CLIENT ID")."""
    first = args[0]
    words = first.split() if isinstance(first, (str, bytes)) else [first]
    command = (*words, *args[1:])
    try:
        packed: bytes = hiredis.pack_command(command)
    except TypeError:  # a type hiredis does not pack (a bytearray, a bool: refused)
        packed = hiredis.pack_command(tuple(encoded(arg) for arg in command))  # type: ignore[arg-type]
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

    @property
    def name(self) -> str:
        return self.path or f"{self.host}:{self.port}"


class _Pending:
    __slots__ = ("expected", "future", "replies")

    def __init__(self, expected: int, future: asyncio.Future[list[Any]]) -> None:
        self.replies: list[Any] = []
        self.expected = expected
        self.future = future


class RespConnection(asyncio.Protocol):
    """Batches of commands out, their replies in; pub/sub messages to `on_message`."""

    def __init__(self, encoding: str | None = None, on_message: OnMessage | None = None) -> None:
        kwargs: dict[str, Any] = {"protocolError": InvalidResponse, "replyError": reply_error}
        if encoding is not None:
            kwargs["encoding"] = encoding
        self._reader = hiredis.Reader(**kwargs)
        self._pending: deque[_Pending] = deque()
        self._on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @property
    def usable(self) -> bool:
        return self.lost is None and self.transport is not None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        reader, pending, on_message = self._reader, self._pending, self._on_message
        reader.feed(data)
        try:
            while (reply := reader.gets()) is not False:
                if on_message is not None and _is_message(reply):
                    on_message(reply)
                    continue
                waiting = pending[0]  # on RESP2 nothing else comes unasked
                waiting.replies.append(reply)
                if len(waiting.replies) == waiting.expected:
                    pending.popleft()
                    if not waiting.future.done():  # a cancelled caller's replies are dropped
                        waiting.future.set_result(waiting.replies)
        except (InvalidResponse, IndexError) as error:  # a stream we cannot follow
            self._fail(ConnectionError(f"unreadable reply from Redis: {error!r}"))
            self.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        reason = f": {exc}" if exc else ""
        self._fail(ConnectionError(f"Connection to Redis lost{reason}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def send(self, packed: bytes, expected: int) -> asyncio.Future[list[Any]]:
        """Write commands already packed; the future gets their `expected` replies (an
        error reply as its value), or the connection's error."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        if not self.usable:
            future.set_exception(self.lost or ConnectionError("not connected to Redis"))
            return future
        assert self.transport is not None
        self._pending.append(_Pending(expected, future))
        self.transport.write(packed)
        return future

    async def ask(self, *command: Any) -> Any:
        """One command's reply; an error reply raised."""
        [reply] = await self.send(pack(command), 1)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def abort(self) -> None:
        """Close at once: connection_lost fails whatever still waits."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def _fail(self, error: BaseException) -> None:
        self.lost = error
        while self._pending:
            waiting = self._pending.popleft()
            if not waiting.future.done():
                waiting.future.set_exception(error)


def _is_message(reply: Any) -> bool:
    return isinstance(reply, list) and len(reply) == 3 and reply[0] in (b"message", "message")


async def connect(address: Address, on_message: OnMessage | None = None) -> RespConnection:
    """A connection, authenticated and on its database, as redis-py's would be."""
    loop = asyncio.get_running_loop()

    def made() -> RespConnection:
        return RespConnection(address.encoding, on_message)

    try:
        async with asyncio.timeout(address.connect_timeout_s):
            if address.path is not None:
                _, connection = await loop.create_unix_connection(made, address.path)
            else:
                _, connection = await loop.create_connection(made, address.host, address.port)
            try:
                await _hello(connection, address)
            except BaseException:
                connection.abort()
                raise
    except (OSError, TimeoutError) as error:
        raise ConnectionError(f"Error connecting to Redis at {address.name}: {error!r}") from error
    return connection


async def _hello(connection: RespConnection, address: Address) -> None:
    """What redis-py's connection does on connect, for the settings feedloom uses."""
    if address.password is not None:
        auth = [address.username] if address.username else []
        await connection.ask("AUTH", *auth, address.password)
    if address.db:
        await connection.ask("SELECT", address.db)
