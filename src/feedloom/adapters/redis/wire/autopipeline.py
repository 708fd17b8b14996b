"""Automatic pipelining: what callers ask of Redis in the same event-loop turn travels
as ONE pipeline, one round trip (what they ask within a few loop turns: TURNS).

Lookups that do not depend on each other are awaited together by the read path
(`asyncio.gather`): the commands each one issues, single or already pipelined, are
collected until the loop turns, then sent at once. Each caller
gets exactly its own replies and errors, as if it had been alone. Blocking reads
(XREADGROUP ... BLOCK) and transactions never join a batch: they would hold it up.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Mapping
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.connection import AbstractConnection, SSLConnection
from redis.exceptions import ConnectionError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from feedloom.adapters.redis.wire.multiplexed import MultiplexedConnection
from feedloom.adapters.redis.wire.resp import Address

Command = tuple[tuple[Any, ...], Mapping[str, Any]]
# Loop turns a batch stays open: lookups awaited together may start theirs a level or
# two down (a gather inside a gathered coroutine schedules its tasks one turn later).
TURNS = 3
KEPT_CONNECTIONS = 8  # idle connections a client keeps for its batches
BLOCKING = {b"BLPOP", b"BRPOP", b"BLMOVE", b"BZPOPMIN", b"BZPOPMAX", b"XREAD", b"XREADGROUP"}


def _blocks(args: tuple[Any, ...]) -> bool:
    name = args[0].encode() if isinstance(args[0], str) else bytes(args[0])
    return name.upper() in BLOCKING


class _Batch:
    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.waiters: list[tuple[int, int, asyncio.Future[list[Any]]]] = []  # start, end


class AutoPipelinedRedis(Redis):
    _batch: _Batch | None = None
    _kept: list[AbstractConnection]
    _shared: MultiplexedConnection | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept = []
        pool = self.connection_pool
        # TLS connections keep redis-py's own path: their setup is redis-py's to get right.
        plain = not issubclass(pool.connection_class, SSLConnection)
        settings = pool.connection_kwargs
        self._shared = (
            MultiplexedConnection(Address.of(settings), settings.get("socket_timeout"))
            if plain
            else None
        )

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        if _blocks(args):
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        [reply] = await self._join([(args, options)])
        if isinstance(reply, Exception):
            raise reply
        return reply

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        if transaction:
            return super().pipeline(transaction, shard_hint)
        return _JoiningPipeline(self)

    async def _join(self, commands: list[Command]) -> list[Any]:
        if not commands:
            return []
        batch = self._batch
        if batch is None:
            batch = self._batch = _Batch()
            asyncio.get_running_loop().call_soon(self._send, batch, TURNS - 1)
        start = len(batch.commands)
        batch.commands += commands
        waiter: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        batch.waiters.append((start, len(batch.commands), waiter))
        return await waiter

    def _send(self, batch: _Batch, turns_left: int) -> None:
        if turns_left:
            asyncio.get_running_loop().call_soon(self._send, batch, turns_left - 1)
            return
        self._batch = None
        task = asyncio.ensure_future(self._run(batch))
        task.add_done_callback(lambda done: done.exception() if not done.cancelled() else None)

    async def _run(self, batch: _Batch) -> None:
        try:
            replies = await self._round_trip(batch.commands)
        except BaseException as error:  # connection-level: every caller gets it
            for _, _, waiter in batch.waiters:
                if not waiter.done():
                    waiter.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        for start, end, waiter in batch.waiters:
            if not waiter.done():
                waiter.set_result(replies[start:end])

    async def _round_trip(self, commands: list[Command]) -> list[Any]:
        """Send the batch in one write and read its replies: over the multiplexed
        connection (multiplexed.py) when every reply is plain, else as redis-py's
        Pipeline does, without its per-execute bookkeeping."""
        if self._shared is None or any(_special(options) for _, options in commands):
            return await self._round_trip_on_own_connection(commands)
        replies = await self._shared.execute([args for args, _ in commands])
        callbacks = self.response_callbacks
        for i, (args, _) in enumerate(commands):
            reply, name = replies[i], args[0]
            callback = callbacks.get(name) if isinstance(name, str) else None
            if callback is not None and not isinstance(reply, ResponseError):
                reply = callback(reply)
                replies[i] = await reply if inspect.isawaitable(reply) else reply
        return replies

    async def _round_trip_on_own_connection(self, commands: list[Command]) -> list[Any]:
        """A connection of the pool's for one batch. One that fails before anything was
        sent is retried once: the kept one may be stale after a Redis restart."""
        for attempt in (1, 2):
            connection = await self._checkout()
            try:
                try:
                    packed = connection.pack_commands([args for args, _ in commands])
                    await connection.send_packed_command(packed, check_health=False)
                except (ConnectionError, RedisTimeoutError, OSError):
                    await connection.disconnect(nowait=True)
                    if attempt == 2:
                        raise
                    await self.connection_pool.release(connection)
                    continue
                replies = await self._replies(connection, commands)
            except BaseException:
                await connection.disconnect(nowait=True)  # replies may be half read
                await self._checkin(connection)
                raise
            await self._checkin(connection)
            return replies
        raise AssertionError("unreachable")

    async def _checkout(self) -> AbstractConnection:
        """A connection for one batch: one this client kept, else one from the pool.
        The pool's checkout (a condition, a timeout, a lock, its metrics, ~30 µs) is
        paid once per kept connection, not once per round trip."""
        kept = self._kept
        while kept:
            connection = kept.pop()
            if connection.is_connected and not await connection.can_read():
                return connection
            await connection.disconnect(nowait=True)  # closed by the server, or dirty
            await self.connection_pool.release(connection)
        fresh: AbstractConnection = await self.connection_pool.get_connection()  # type: ignore[no-untyped-call]
        return fresh

    async def _checkin(self, connection: AbstractConnection) -> None:
        if connection.is_connected and len(self._kept) < KEPT_CONNECTIONS:
            self._kept.append(connection)
        else:
            await self.connection_pool.release(connection)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        kept, self._kept = self._kept, []
        if self._shared is not None:
            await self._shared.close()
        for connection in kept:
            await self.connection_pool.release(connection)
        await super().aclose(close_connection_pool)

    async def _replies(self, connection: AbstractConnection, commands: list[Command]) -> list[Any]:
        """Each command's reply (its own error as a value), all under one read timeout."""
        callbacks = self.response_callbacks
        replies: list[Any] = []
        try:
            async with asyncio.timeout(connection.socket_timeout):
                for args, options in commands:
                    if _special(options):
                        try:
                            replies.append(
                                await self.parse_response(connection, args[0], **options)  # type: ignore[arg-type]
                            )
                        except ResponseError as error:  # a command's own error: its caller's
                            replies.append(error)
                        continue
                    try:
                        reply = await connection.read_response()
                    except ResponseError as error:
                        replies.append(error)
                        continue
                    name = args[0]
                    callback = callbacks.get(name) if isinstance(name, str) else None
                    if callback is not None:
                        reply = callback(reply)
                        if inspect.isawaitable(reply):
                            reply = await reply
                    replies.append(reply)
        except TimeoutError:  # the scope's own (builtin): redis-py's kind for callers
            raise RedisTimeoutError("Timeout reading from Redis") from None
        except OSError as error:
            raise ConnectionError(f"Error while reading from Redis: {error}") from error
        return replies


def _special(options: Mapping[str, Any]) -> bool:
    """Options that change how a reply is read or shaped (NEVER_DECODE, EMPTY_RESPONSE,
    a callback's arguments): redis-py's own path reads those. `keys` only feeds its
    client-side cache, which feedloom does not use."""
    return bool(options) and (len(options) > 1 or "keys" not in options)


class _JoiningPipeline(Pipeline):
    """A caller's own pipeline, joined to the turn's batch when executed."""

    def __init__(self, owner: AutoPipelinedRedis) -> None:
        super().__init__(owner.connection_pool, owner.response_callbacks, False, None)
        self._owner = owner

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        commands: list[Command] = list(self.command_stack)
        self.command_stack = []
        replies = await self._owner._join(commands)
        if raise_on_error:
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
        return replies
