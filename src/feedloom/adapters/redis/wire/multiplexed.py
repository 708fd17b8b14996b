"""One Redis connection that many batches share (resp.py), reconnected when lost.

Measured here, two round trips of five commands cost ~135 µs wall and ~95 µs of client
CPU this way, against ~290 µs of both through redis-py's connection
(docs/BENCHMARKS.md, "What each trick bought"). redis-py stays the client; this
replaces only the socket under the automatic pipeline's batches (autopipeline.py) and
the cluster client's per-node batches (client.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from redis.exceptions import TimeoutError as RedisTimeoutError

from feedloom.adapters.redis.wire.resp import Address, RespConnection, connect, pack


class MultiplexedConnection:
    """Batches of commands over one kept connection; (re)connects when it has none."""

    def __init__(self, address: Address, socket_timeout_s: float | None = None) -> None:
        self._address, self._timeout = address, socket_timeout_s
        self._connection: RespConnection | None = None
        self._connecting: asyncio.Future[RespConnection] | None = None

    async def execute(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        """Each command's reply, a command's own error as its value (ResponseError).
        Raises ConnectionError or TimeoutError when the connection fails: every batch
        then waiting on it gets the same error, and the next batch reconnects. A
        connection found closed before the batch is written is replaced first."""
        connection = self._connection
        if connection is None or not connection.usable:
            connection = await self._connected()
        future = connection.send(b"".join([pack(args) for args in commands]), len(commands))
        if self._timeout is None:
            return await future
        try:
            async with asyncio.timeout(self._timeout):
                return await future
        except TimeoutError:
            self._drop(connection)  # the replies still owed would misalign the next batch
            raise RedisTimeoutError("Timeout reading from Redis") from None

    async def close(self) -> None:
        if self._connection is not None:
            self._drop(self._connection)

    def _drop(self, connection: RespConnection) -> None:
        if self._connection is connection:
            self._connection = None
        connection.abort()

    async def _connected(self) -> RespConnection:
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(connect(self._address))
            self._connecting.add_done_callback(self._connected_or_not)
        return await asyncio.shield(self._connecting)

    def _connected_or_not(self, attempt: asyncio.Future[RespConnection]) -> None:
        self._connecting = None
        if not attempt.cancelled() and attempt.exception() is None:
            self._connection = attempt.result()
