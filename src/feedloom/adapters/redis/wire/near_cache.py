"""Views and counts kept in this process while Redis says they have not changed:
server-assisted client-side caching (`CLIENT TRACKING ... BCAST`).

A warm feed page reads ~45 post and profile views and ~25 like/comment counters. From
Redis that is MGET argument lists and a script's reply parsed, each view compared with
the one decoded before (caches.py `Decoded`), and ~70 of the ~95 keys Redis touches for
the read (docs/BENCHMARKS.md). They change far less often than they are read, so each
process keeps what it read, and Redis tells it when something changes:

- one connection of its own subscribes to `__redis__:invalidate` and has Redis send
  it, in broadcast mode, the name of every key under the tracked prefixes that any
  client writes, expires or deletes (`CLIENT TRACKING ON REDIRECT <itself> BCAST`);
- a kept value is dropped when its key's invalidation arrives, and everything is
  dropped when that connection is lost or Redis is flushed: without the connection
  nothing is kept, and reads go to Redis as before (`live`);
- a read is never staler than one that went to Redis. Before trusting what it keeps, a
  read waits for a PING it sends on the invalidation connection after it began
  (`fence`): Redis queues a write's invalidations before its reply, so every write
  that completed before the read began has had its invalidation applied by then. A
  feed page sends it as it begins (`NearCache.read`), beside its first round trip, so
  a page served wholly from what is kept waits for no second one; a lookup outside
  such a read sends its own. The PINGs asked for in one loop turn are one PING;
- a value fetched from Redis is kept only if no invalidation of its key arrived since
  the read began (`ticket`): the invalidation and the reply come on different
  connections, in either order;
- the one exception: a value this process' own write returned may be kept over that
  write's invalidation (`keep_own`), where missing another process' write of the same
  instant is harmless (a distinct-viewer estimate).

A write needs nothing more: this process' own writes are invalidated like anyone's,
before any later read trusts what it keeps. On a Redis Cluster tracking is per node:
not done there, a cluster reads everything from Redis. Nor over TLS (the connection
here is plain).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

from cachetools import FIFOCache
from redis.exceptions import RedisError, ResponseError

from feedloom.adapters.redis.wire.resp import Address, RespConnection, connect

log = logging.getLogger(__name__)

V = TypeVar("V")
CHANNEL = b"__redis__:invalidate"
PING = b"*1\r\n$4\r\nPING\r\n"
KEPT_VIEWS = 50_000  # values a region keeps unless told otherwise; the oldest go first
RECENT_INVALIDATIONS = 10_000  # kept for reads in flight; past it, those keep nothing
FENCE_TIMEOUT_S = 2.0  # a PING unanswered this long: the connection is dropped
KEEPALIVE_S = 0.5  # an idle connection is PINGed this often, so a dead one is noticed
RETRY_S = (0.1, 0.5, 1.0, 2.0, 5.0)  # reconnect delays, the last repeated


class NearRegion(Generic[V]):
    """The kept values of one kind, by ID (a post's view or counts, a profile, a
    record): a write to any key under its prefixes ("<prefix>123}") drops ID 123."""

    def __init__(
        self,
        near: NearCache,
        prefixes: tuple[bytes, ...],
        limit: int = KEPT_VIEWS,
        sizeof: Callable[[V], float] | None = None,
    ) -> None:
        self._near, self.prefixes = near, prefixes
        # `limit` counts values, or what `sizeof` says they weigh
        self._views: FIFOCache[int, V] = FIFOCache(maxsize=limit, getsizeof=sizeof)
        self._invalidated: dict[int, int] = {}  # ID -> sequence number of its invalidation

    @property
    def live(self) -> bool:
        return self._near.live

    def ticket(self) -> int:
        """Taken when a read begins: what it fetches is kept against it (`keep`)."""
        return self._near.sequence

    def fence(self) -> asyncio.Future[bool]:
        return self._near.fence()

    def begin(self) -> tuple[int, asyncio.Future[bool]]:
        """A lookup's ticket and fence: those of the read it is part of
        (`NearCache.read`), or taken now."""
        scope = _READ.get()
        if scope is not None and scope.near is self._near:
            return scope.ticket, scope.synced
        return self.ticket(), self.fence()

    def split(self, ids: Sequence[int]) -> tuple[dict[int, V], list[int]]:
        """The kept views of these IDs, and the IDs not kept."""
        kept, found, missing = self._views.__getitem__, {}, []
        for key in ids:
            try:
                found[key] = kept(key)
            except KeyError:
                missing.append(key)
        return found, missing

    def changed_since(self, ids: Iterable[int], ticket: int) -> list[int]:
        """Which of these IDs may have changed since `ticket` was taken."""
        if not self._near.valid(ticket):
            return list(ids)
        invalidated = self._invalidated
        return [key for key in ids if invalidated.get(key, -1) > ticket]

    def keep(self, fetched: dict[int, V], ticket: int) -> None:
        """Keep views fetched by a read that began at `ticket`, except any invalidated
        since: the invalidation may have overtaken the reply."""
        if not fetched or not self._near.valid(ticket):
            return
        views, invalidated = self._views, self._invalidated
        for key, view in fetched.items():
            if invalidated.get(key, -1) <= ticket:
                views[key] = view

    def keep_own(self, written: dict[int, V]) -> None:
        """Keep what this process' own write returned (the value right after it), though
        that write invalidates it: once its invalidations are in (a fence sent now), it
        is stored over them. What it can miss is a write another process made in that
        instant, until the key's next change: only for values where that is harmless
        (a distinct-viewer estimate, one low; redis/sketches.py)."""
        if not written or not self.live:
            return
        ticket = self.ticket()

        def keep(synced: asyncio.Future[bool]) -> None:
            if synced.result() and self._near.valid(ticket):  # no reset since
                self.keep(written, self._near.sequence)

        self.fence().add_done_callback(keep)

    def drop(self, key: int) -> None:
        """Forget what is kept of `key`: this process replaced it with a value it does
        not keep."""
        self._views.pop(key, None)

    def invalidated(self, name: bytes, prefix: bytes, sequence: int) -> None:
        # "<prefix>123}", or a hot post's sub-counter "<prefix>123.4}"
        try:
            key = int(name[len(prefix) : -1].partition(b".")[0])
        except ValueError:
            return  # not a key of ours (nothing else is written under the prefix)
        self._forget(key, sequence)

    def clear(self) -> None:
        self._views.clear()
        self._invalidated.clear()

    def _forget(self, key: int, sequence: int) -> None:
        self._views.pop(key, None)
        invalidated = self._invalidated
        if len(invalidated) >= RECENT_INVALIDATIONS:
            invalidated.clear()
            self._near.forget_history()
        invalidated[key] = sequence


async def read_through(
    near: NearRegion[V] | None,
    ids: Sequence[int],
    fetch: Callable[[Sequence[int]], Awaitable[dict[int, V]]],
    always: Sequence[int] = (),
) -> dict[int, V]:
    """What `fetch` would return for these IDs (those it finds), from `near` where it
    can: what it keeps is trusted once the fence is passed, what it lacks is fetched
    (beside the fence) and kept. `always` (among `ids`) are fetched even when kept:
    the fetch writes something for them (redis/sketches.py)."""
    if near is None or not near.live:
        return await fetch(ids)
    ticket, synced = near.begin()  # a fence of its own is sent at the end of this turn
    found, missing = near.split(ids)
    if always:
        missing = list(dict.fromkeys([*missing, *always]))
        for key in always:
            found.pop(key, None)
    fetched = await fetch(missing) if missing else {}
    if not await synced:  # the connection went down: nothing kept can be trusted
        return {**fetched, **await fetch(list(found))}
    if changed := near.changed_since(found, ticket):  # invalidated while in flight
        refreshed = await fetch(changed)
        for key in changed:
            del found[key]
        found.update(refreshed)
    near.keep(fetched, ticket)
    found.update(fetched)
    return found


@dataclass(frozen=True, slots=True)
class _Read:
    """A read in progress (`NearCache.read`): when it began, and its fence."""

    near: NearCache
    ticket: int
    synced: asyncio.Future[bool]


_READ: ContextVar[_Read | None] = ContextVar("feedloom_near_read", default=None)


class NearCache:
    """The invalidation connection, and the regions it keeps fresh."""

    def __init__(
        self,
        address: Address,
        on_reset: Callable[[str], None] = lambda _reason: None,
    ) -> None:
        self._address, self.on_reset = address, on_reset
        self._regions: list[NearRegion[Any]] = []
        self.sequence = 0  # advanced by every invalidation and reset
        self._floor = 0  # tickets below it keep nothing (history forgotten, or a reset)
        self._listener: Listener | None = None
        self._task: asyncio.Task[None] | None = None
        self._started: asyncio.Future[None] | None = None

    def region(
        self, *prefixes: str, limit: int = KEPT_VIEWS, sizeof: Callable[[Any], float] | None = None
    ) -> NearRegion[Any]:
        """Values kept by ID while no key under `prefixes` with that ID changes."""
        encoded = tuple(prefix.encode() for prefix in prefixes)
        region: NearRegion[Any] = NearRegion(self, encoded, limit, sizeof)
        self._regions.append(region)
        return region

    @property
    def live(self) -> bool:
        return self._listener is not None

    @property
    def client_id(self) -> int | None:
        """The invalidation connection's ID on the server, while live."""
        return None if self._listener is None else self._listener.client_id

    async def start(self, wait_s: float = 2.0) -> bool:
        """Connect and keep reconnecting in the background; whether it went live within
        `wait_s` (reads go to Redis until it does)."""
        loop = asyncio.get_running_loop()
        self._started = loop.create_future()
        self._task = asyncio.create_task(self._run(), name="feedloom-near-cache")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                await asyncio.shield(self._started)
        return self.live

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._go_dark("closed")

    @contextlib.contextmanager
    def read(self) -> Iterator[None]:
        """Around one read (a feed page): its fence is sent as it begins, beside its
        first round trip, and every lookup in it uses that fence (ports.ReadFreshness).
        Scoped to the read: a lookup after it sends a fence of its own."""
        if self._listener is None:
            yield
            return
        token = _READ.set(_Read(self, self.sequence, self.fence()))
        try:
            yield
        finally:
            _READ.reset(token)

    def advance(self) -> int:
        self.sequence += 1
        return self.sequence

    def valid(self, ticket: int) -> bool:
        return ticket >= self._floor and self._listener is not None

    def forget_history(self) -> None:
        self._floor = self.advance()

    def fence(self) -> asyncio.Future[bool]:
        """Resolves True once every invalidation Redis sent before now is applied;
        False if the connection went down first (then nothing kept can be trusted)."""
        listener = self._listener
        if listener is None:
            future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            future.set_result(False)
            return future
        return listener.fence()

    async def _run(self) -> None:
        failures = 0
        while True:
            try:
                listener = await Listener.open(self._address, self._prefixes(), self._invalidate)
            except _TrackingRefused as refused:
                log.warning("near cache off: Redis refused its setup (%s)", refused)
                self._resolve_started()
                return
            except (OSError, TimeoutError, RedisError) as error:
                failures += 1
                log.info("near cache: cannot connect (%r), retrying", error)
                self._resolve_started()
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S)) - 1])
                continue
            failures = 0
            self._go_live(listener)
            try:
                await listener.serve()
            finally:
                self._go_dark("lost")

    def _prefixes(self) -> list[bytes]:
        return [prefix for region in self._regions for prefix in region.prefixes]

    def _go_live(self, listener: Listener) -> None:
        for region in self._regions:
            region.clear()
        self._floor = self.advance()  # what was fetched before tracking began is not kept
        self._listener = listener
        self.on_reset("connected")
        self._resolve_started()

    def _go_dark(self, reason: str) -> None:
        if self._listener is None:
            return
        self._listener.abort()
        self._listener = None
        self._floor = self.advance()
        for region in self._regions:
            region.clear()
        self.on_reset(reason)

    def _resolve_started(self) -> None:
        if self._started is not None and not self._started.done():
            self._started.set_result(None)

    def _invalidate(self, names: list[bytes] | None) -> None:
        sequence = self.advance()
        if names is None:  # FLUSHDB / FLUSHALL: every key is gone
            self._floor = sequence
            for region in self._regions:
                region.clear()
            self.on_reset("flushed")
            return
        tracked = [(prefix, region) for region in self._regions for prefix in region.prefixes]
        for name in names:
            for prefix, region in tracked:
                if name.startswith(prefix):
                    region.invalidated(name, prefix, sequence)
                    break


class _TrackingRefused(Exception):
    """The server answered the setup with an error (Redis < 6, an ACL)."""


class Listener:
    """The subscribed connection (resp.py): invalidations in, PINGs out."""

    def __init__(self, connection: RespConnection) -> None:
        self._connection = connection
        self._waiting: deque[float] = deque()  # when each unanswered PING was sent
        self._fence: asyncio.Future[bool] | None = None  # the PING this loop turn asks for
        self.client_id = 0

    @classmethod
    async def open(
        cls,
        address: Address,
        prefixes: Sequence[bytes],
        on_invalidation: Callable[[list[bytes] | None], None],
    ) -> Listener:
        connection = await connect(address, lambda message: on_invalidation(message[2]))
        listener = cls(connection)
        try:
            async with asyncio.timeout(address.connect_timeout_s):
                await listener._track(prefixes)
        except ResponseError as refused:
            connection.abort()
            raise _TrackingRefused(str(refused)) from refused
        except BaseException:
            connection.abort()
            raise
        return listener

    async def _track(self, prefixes: Sequence[bytes]) -> None:
        ask = self._connection.ask
        await ask("CLIENT", "SETNAME", "feedloom-near-cache")  # for CLIENT LIST
        self.client_id = await ask("CLIENT", "ID")
        prefix_args = [arg for prefix in prefixes for arg in (b"PREFIX", prefix)]
        await ask("CLIENT", "TRACKING", "ON", "REDIRECT", self.client_id, "BCAST", *prefix_args)
        await ask("SUBSCRIBE", CHANNEL)

    async def serve(self) -> None:
        """Until the connection ends (or is aborted); PINGs an idle connection and
        drops one whose PING goes unanswered."""
        watchdog = asyncio.create_task(self._watch())
        try:
            await self._connection.closed
            log.info("near cache: connection lost (%r)", self._connection.lost)
        finally:
            watchdog.cancel()
            self.abort()

    def fence(self) -> asyncio.Future[bool]:
        if self._fence is None:
            loop = asyncio.get_running_loop()
            self._fence = loop.create_future()
            loop.call_soon(self.ping)
        return self._fence

    def ping(self) -> bool:
        """Send the PING this loop turn's fences wait for; whether it went out."""
        future, self._fence = self._fence, None
        if future is None or future.done():  # aborted meanwhile
            return False
        if not self._connection.usable:
            future.set_result(False)
            return False
        self._waiting.append(asyncio.get_running_loop().time())
        reply = self._connection.send(PING, 1)
        reply.add_done_callback(partial(self._answered, future))
        return True

    def _answered(self, fence: asyncio.Future[bool], reply: asyncio.Future[list[Any]]) -> None:
        if self._waiting:
            self._waiting.popleft()
        if not fence.done():
            fence.set_result(not reply.cancelled() and reply.exception() is None)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            if self._waiting:
                if loop.time() - self._waiting[0] > FENCE_TIMEOUT_S:
                    log.warning("near cache: Redis did not answer a PING, reconnecting")
                    self.abort()
                    return
            elif self._fence is None:
                self.fence()

    def abort(self) -> None:
        self._connection.abort()  # every PING still waiting fails: its fence says False
        if self._fence is not None and not self._fence.done():
            self._fence.set_result(False)
