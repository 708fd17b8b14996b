"""The event log on Redis Streams: one stream per lane, one consumer group of fan-out workers.

At-least-once: a delivery stays pending in the group until acknowledged, and fan-out
is idempotent, so a repeat costs nothing but work. A worker that dies holding
deliveries loses them to the others: each consume first reclaims (XAUTOCLAIM) entries
idle longer than `claim_idle_ms`, at most every `claim_every_s`. An acknowledged entry
is deleted in the same transaction (XACK + XDEL), so a stream holds exactly the events
not yet done and its memory stays bounded by the backlog; with one group nothing else
needs them. Entries carry IDs only: kind, post_id, author_id.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from redis.exceptions import ResponseError

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.scripts import RedisClient
from feedloom.domain.model import Event, PostDeleted, PostPublished
from feedloom.ports import Delivery, Lane

log = logging.getLogger(__name__)
T = TypeVar("T")
GROUP = "fanout"
LANES: tuple[Lane, ...] = ("default", "bulk")
KINDS: dict[bytes, type[PostPublished] | type[PostDeleted]] = {
    b"published": PostPublished,
    b"deleted": PostDeleted,
}


def encode_event(event: Event) -> dict[str, str | int]:
    kind = "published" if isinstance(event, PostPublished) else "deleted"
    return {"kind": kind, "post_id": event.post_id, "author_id": event.author_id}


def decode_event(fields: dict[bytes, bytes]) -> Event:
    kind = KINDS[fields[b"kind"]]
    return kind(post_id=int(fields[b"post_id"]), author_id=int(fields[b"author_id"]))


class RedisEventQueue:
    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        claim_idle_ms: int = 30_000,
        claim_every_s: float = 5.0,
    ) -> None:
        self._client = client
        self._keys = keys
        self._claim_idle_ms = claim_idle_ms
        self._claim_every_s = claim_every_s
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
            if "NOGROUP" not in str(error):
                raise
        # The stream or its group vanished (Redis restarted empty, keys deleted):
        # make the group again, from the start of whatever the stream holds.
        self._groups_made.discard(lane)
        await self._ensure_group(lane)
        return await call()

    async def _ensure_group(self, lane: Lane) -> None:
        if lane in self._groups_made:
            return
        try:
            # From id 0: events published before any worker started still count.
            await self._client.xgroup_create(self._keys.stream(lane), GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise
        self._groups_made.add(lane)
