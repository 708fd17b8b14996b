"""The event log on Redis Streams: one stream per lane, one consumer group of fan-out workers.

At-least-once: a delivery stays pending in the group until acknowledged, and fan-out
is idempotent, so a repeat costs nothing but work. A worker that dies holding
deliveries loses them to the others: each consume first reclaims (XAUTOCLAIM) entries
idle longer than `claim_idle_ms`, at most every `claim_every_s`. That idle time is short
(5 s by default: a dead worker's posts are late by about that much, within the 10 s
freshness promise) because a live worker never lets its deliveries go idle, however
long their batch takes: while it works on them (`working_on`) it touches them every
`heartbeat_s` with XCLAIM to itself, JUSTID (their idle time goes back to 0, their
delivery count stays). Only a worker that died, or hung longer than the idle time,
stops touching; a batch that failed is no longer touched, so it is redelivered the
same way. No key besides the stream: cluster-safe as it is. An acknowledged entry
is deleted in the same transaction (XACK + XDEL), so a stream holds exactly the events
not yet done and its memory stays bounded by the backlog; with one group nothing else
needs them. Entries carry IDs and the relay's decision: kind, post_id, author_id, seq (the outbox
row), pulled.

Each lane's stream has an epoch (a random token in a key of the stream's slot), set
anew whenever the consumer group has to be created: a stream that vanished (a failover
to an empty replica, a deleted key) gets a new epoch, and the relay re-sends the events
the outbox still holds under an older one (adapters/sql/outbox.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from functools import partial
from typing import Any, TypeVar, cast

from redis.exceptions import ResponseError
from redis.typing import StreamIdT

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import LuaScript, RedisClient, ScriptRunner
from feedloom.domain.model import (
    AccountErased,
    AuthorPushed,
    Event,
    PostDeleted,
    PostEdited,
    PostPublished,
)
from feedloom.domain.notifications import Notified
from feedloom.ports import Delivery, Lane

log = logging.getLogger(__name__)
T = TypeVar("T")
GROUP = "fanout"
LANES: tuple[Lane, ...] = ("default", "bulk")
KIND_NAMES: dict[type, str] = {
    PostPublished: "published",
    PostDeleted: "deleted",
    AuthorPushed: "author_pushed",
    Notified: "notified",
    PostEdited: "edited",
    AccountErased: "erased",
}
PULLED = {b"1": True, b"0": False}

# KEYS: stream, epoch. ARGV: group, a fresh token. Creates the group (and stream) if
# missing, and then a new epoch: whatever the stream held before is gone.
ENSURE_GROUP = LuaScript(
    r"""
local made = pcall(redis.call, 'XGROUP', 'CREATE', KEYS[1], ARGV[1], '0', 'MKSTREAM')
local epoch = redis.call('GET', KEYS[2])
if made or not epoch then
  redis.call('SET', KEYS[2], ARGV[2])
  return ARGV[2]
end
return epoch
"""
)


def encode_event(event: Event) -> dict[str, str | int]:
    fields: dict[str, str | int] = {
        "kind": KIND_NAMES[type(event)],
        "post_id": event.post_id,
        "author_id": event.author_id,
        "seq": event.seq,
    }
    if isinstance(event, PostPublished) and event.pulled is not None:
        fields["pulled"] = int(event.pulled)
    if isinstance(event, Notified):
        fields.update(target=event.recipient_id, group=event.group_key, undo=int(event.undo))
    if isinstance(event, AccountErased):
        fields.update(target=event.app_id, group=event.external_id)
    return fields


def decode_event(fields: dict[bytes, bytes]) -> Event:
    kind, author_id = fields[b"kind"], int(fields[b"author_id"])
    seq = int(fields.get(b"seq", b"0"))
    if kind == b"author_pushed":
        return AuthorPushed(author_id=author_id, seq=seq)
    if kind == b"erased":
        return AccountErased(author_id, int(fields[b"target"]), fields[b"group"].decode(), seq=seq)
    post_id = int(fields[b"post_id"])
    if kind == b"deleted":
        return PostDeleted(post_id=post_id, author_id=author_id, seq=seq)
    if kind == b"edited":
        return PostEdited(post_id=post_id, author_id=author_id, seq=seq)
    if kind == b"notified":
        target, group = int(fields[b"target"]), fields[b"group"].decode()
        undo = fields.get(b"undo") == b"1"
        return Notified(target, author_id, post_id, group, undo, seq)
    if kind == b"published":
        pulled = PULLED.get(fields.get(b"pulled", b""))
        return PostPublished(post_id=post_id, author_id=author_id, seq=seq, pulled=pulled)
    raise ValueError(f"unknown event kind {kind!r}")


class RedisEventQueue:
    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        claim_idle_ms: int = 5_000,
        claim_every_s: float = 1.0,
        heartbeat_s: float = 1.0,
    ) -> None:
        self._client = client
        self._scripts = ScriptRunner(client)
        self._keys = keys
        self._claim_idle_ms = claim_idle_ms
        self._claim_every_s = claim_every_s
        self._heartbeat_s = heartbeat_s
        self._groups_made: set[Lane] = set()
        self._last_claim: dict[Lane, float] = {}
        self._claim_cursor: dict[Lane, bytes | str] = {}

    async def publish(self, events: Sequence[Event], lane: Lane) -> None:
        await self._ensure_group(lane)
        pipe = self._client.pipeline(transaction=False)
        for event in events:
            pipe.xadd(self._keys.stream(lane), encode_event(event))  # type: ignore[arg-type]
        await pipe.execute()

    async def consume(self, lane: Lane, consumer: str, count: int, block_ms: int) -> list[Delivery]:
        await self._ensure_group(lane)
        claimed = await self._regrouping(lane, partial(self._reclaim, lane, consumer, count))
        if claimed:
            return claimed
        replies = await self._regrouping(lane, partial(self._read, lane, consumer, count, block_ms))
        entries = [entry for _stream, stream_entries in replies for entry in stream_entries]
        return await self._deliveries(lane, entries)

    @contextlib.asynccontextmanager
    async def working_on(
        self, consumer: str, deliveries: Sequence[Delivery]
    ) -> AsyncIterator[None]:
        """Keep the deliveries this consumer's while the body runs (module doc)."""
        stop = asyncio.Event()
        beating = asyncio.create_task(self._heartbeat(consumer, deliveries, stop))
        try:
            yield
        finally:
            stop.set()  # a touch under way finishes first: no command is cut in half
            await beating

    async def _heartbeat(
        self, consumer: str, deliveries: Sequence[Delivery], stop: asyncio.Event
    ) -> None:
        receipts: defaultdict[Lane, list[StreamIdT]] = defaultdict(list)
        for delivery in deliveries:
            receipts[delivery.lane].append(delivery.receipt)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._heartbeat_s)
            if stop.is_set():
                return
            try:
                for lane, ids in receipts.items():
                    # An entry acknowledged meanwhile is in no PEL any more: XCLAIM
                    # skips it. One another consumer took over comes back here: both
                    # do it, which costs work, never a post.
                    await self._client.xclaim(
                        self._keys.stream(lane), GROUP, consumer, 0, ids, justid=True
                    )
            except Exception:
                # A missed beat costs at worst a repeat of the batch elsewhere; the
                # batch itself goes on and reports its own errors.
                log.warning("could not touch %d deliveries of %s", len(deliveries), consumer)

    async def ack(self, deliveries: Sequence[Delivery]) -> None:
        for lane in LANES:
            receipts = [d.receipt for d in deliveries if d.lane == lane]
            if receipts:
                await self._ack_receipts(lane, receipts)

    async def lag(self) -> dict[str, int]:
        """Per lane, events not yet handed out; `unacked`, handed out but not acked
        (the same meaning as the in-process queue). Zero everywhere means done."""
        lag: dict[str, int] = {}
        unacked = 0
        for lane in LANES:
            await self._ensure_group(lane)
            length, pending = await self._regrouping(lane, partial(self._depth, lane))
            lag[lane] = length - pending["pending"]
            unacked += pending["pending"]
        lag["unacked"] = unacked
        return lag

    async def epochs(self) -> dict[str, str]:
        epochs: dict[str, str] = {}
        for lane in LANES:
            epochs[lane] = await self._ensure_group_now(lane)
            self._groups_made.add(lane)
        return epochs

    async def oldest_age_s(self) -> dict[str, float]:
        """Acked entries are deleted, so a stream's first entry is its oldest waiting
        one; its ID is the milliseconds it was added at (Redis' clock)."""
        ages: dict[str, float] = {}
        for lane in LANES:
            first = await self._client.xrange(self._keys.stream(lane), count=1)
            if not first:
                ages[lane] = 0.0
                continue
            entry_id = cast(bytes, first[0][0])
            added_ms = int(entry_id.split(b"-")[0])
            now_s, now_us = await self._client.time()
            ages[lane] = max(0.0, now_s + now_us / 1e6 - added_ms / 1000)
        return ages

    async def _ensure_group_now(self, lane: Lane) -> str:
        keys = [self._keys.stream(lane), self._keys.stream_epoch(lane)]
        epoch = await self._scripts.call(ENSURE_GROUP, keys, [GROUP, uuid.uuid4().hex])
        return epoch.decode() if isinstance(epoch, bytes) else str(epoch)

    async def _depth(self, lane: Lane) -> Any:
        stream = self._keys.stream(lane)
        pipe = self._client.pipeline(transaction=False)
        pipe.xlen(stream)
        pipe.xpending(stream, GROUP)
        return await pipe.execute()

    async def _read(self, lane: Lane, consumer: str, count: int, block_ms: int) -> Any:
        return await self._client.xreadgroup(
            GROUP,
            consumer,
            {self._keys.stream(lane): ">"},
            count=count,
            block=block_ms if block_ms > 0 else None,  # BLOCK 0 would wait forever
        )

    async def _reclaim(self, lane: Lane, consumer: str, count: int) -> list[Delivery]:
        now = time.monotonic()
        if now - self._last_claim.get(lane, float("-inf")) < self._claim_every_s:
            return []
        self._last_claim[lane] = now
        cursor, entries, *_deleted = await self._client.xautoclaim(
            self._keys.stream(lane),
            GROUP,
            consumer,
            self._claim_idle_ms,
            start_id=self._claim_cursor.get(lane, "0-0"),
            count=count,
        )
        self._claim_cursor[lane] = cursor  # resume the PEL scan here next time
        if entries:
            log.info("reclaimed %d idle %s deliveries for %s", len(entries), lane, consumer)
        return await self._deliveries(lane, entries)

    async def _deliveries(
        self, lane: Lane, entries: Sequence[tuple[bytes, dict[bytes, bytes]]]
    ) -> list[Delivery]:
        deliveries, unreadable = [], []
        for entry_id, fields in entries:
            try:
                event = decode_event(fields)
            except (KeyError, ValueError):
                unreadable.append(entry_id.decode())
                continue
            deliveries.append(Delivery(event, lane, entry_id.decode()))
        if unreadable:
            # Retrying cannot fix a malformed entry: log it and drop it.
            log.error("dropping %d unreadable %s entries: %s", len(unreadable), lane, unreadable)
            await self._ack_receipts(lane, unreadable)
        return deliveries

    async def _ack_receipts(self, lane: Lane, receipts: Sequence[str]) -> None:
        stream = self._keys.stream(lane)
        pipe = self._client.pipeline(transaction=True)
        pipe.xack(stream, GROUP, *receipts)
        pipe.xdel(stream, *receipts)
        try:
            await pipe.execute()
        except ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
            # The stream was lost with these entries in it: nothing is left to ack.

    async def _regrouping(self, lane: Lane, call: Callable[[], Awaitable[T]]) -> T:
        try:
            return await call()
        except ResponseError as error:
            # UNBLOCKED: the stream was deleted while a read was blocked on it.
            if not str(error).startswith(("NOGROUP", "UNBLOCKED")):
                raise
        # The stream or its group vanished (Redis restarted empty, keys deleted):
        # make the group again, from the start of whatever the stream holds.
        self._groups_made.discard(lane)
        await self._ensure_group(lane)
        return await call()

    async def _ensure_group(self, lane: Lane) -> None:
        if lane in self._groups_made:
            return
        # From id 0: events published before any worker started still count. A group
        # made here means a stream made anew: a new epoch (ENSURE_GROUP).
        await self._ensure_group_now(lane)
        self._groups_made.add(lane)
