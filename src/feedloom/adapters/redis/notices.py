"""RedisNoticeBus: new-post notices across processes over Redis pub/sub.

Fan-out workers PUBLISH one message per topic (pipelined), or, for a fan-out batch, one
message on one channel carrying the topic prefix and all its runs packed as 64-bit
integers, each run its post, its key count and its keys (`publish_many`: one command
for thousands of readers, which a process reads only while it has listeners, and
filters for them). Each API process holds ONE pub/sub connection, subscribed to the
topics its open streams need, and hands messages to its local listeners (NoticeHub:
bounded queues, slow listeners dropped). Pub/sub keeps nothing: a notice nobody listens
to is gone, which is right for a "new posts" hint (a stream recounts from the caches
when it connects). On Redis Cluster, classic pub/sub is broadcast to every node, so one
connection to any node sees every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from array import array
from collections.abc import AsyncIterator, Sequence

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from feedloom.adapters.memory.notices import QUEUE_SIZE, HubListener, NoticeHub
from feedloom.ports import PostRun

log = logging.getLogger(__name__)
IDLE_S = 0.05


class RedisNoticeBus:
    def __init__(self, client: Redis, prefix: str, queue_size: int = QUEUE_SIZE) -> None:
        self._client, self._prefix = client, prefix
        self._hub = NoticeHub(queue_size)
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def _channel(self, topic: str) -> str:
        return f"{self._prefix}:notice:{topic}"

    @property
    def _many_channel(self) -> str:
        return f"{self._prefix}:notices"

    async def publish_many(self, prefix: str, runs: Sequence[PostRun]) -> None:
        if runs:
            # Native 64-bit integers, as array("q") reads them (filled in C).
            flat = array("q")
            for post_id, keys in runs:
                flat.append(post_id)
                flat.append(len(keys))
                flat.extend(keys)
            await self._client.publish(self._many_channel, prefix.encode() + b"|" + bytes(flat))

    async def publish(self, topics: Sequence[str], post_id: int) -> None:
        if not topics:
            return
        pipe = self._client.pipeline(transaction=False)
        for topic in topics:
            pipe.publish(self._channel(topic), str(post_id))
        await pipe.execute()

    @contextlib.asynccontextmanager
    async def listen(self, topics: Sequence[str]) -> AsyncIterator[HubListener]:
        async with self._lock:
            first = not self._hub.topics()
            new = [self._channel(t) for t in dict.fromkeys(topics) if t not in self._hub.topics()]
            listener = self._hub.add(topics)
            pubsub = await self._started()
            if new:
                await pubsub.subscribe(*new, *([self._many_channel] if first else []))
        try:
            yield listener
        finally:
            async with self._lock:
                emptied = [self._channel(t) for t in self._hub.remove(listener)]
                if not self._hub.topics():
                    emptied.append(self._many_channel)
                if emptied and self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.unsubscribe(*emptied)

    async def _started(self) -> PubSub:
        if self._pubsub is None:
            self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            self._reader = asyncio.create_task(self._read(self._pubsub))
        return self._pubsub

    async def _read(self, pubsub: PubSub) -> None:
        start = len(self._channel(""))
        while True:
            if not pubsub.subscribed:
                await asyncio.sleep(IDLE_S)
                continue
            try:
                message = await pubsub.get_message(timeout=1.0)
            except (RedisError, OSError):
                log.warning("notice subscription lost; retrying", exc_info=True)
                await asyncio.sleep(1.0)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            if channel == self._many_channel:
                self._deliver_many(message["data"])
            else:
                self._hub.deliver([channel[start:]], int(message["data"]))

    def _deliver_many(self, data: bytes) -> None:
        prefix, _, packed = data.partition(b"|")
        flat = array("q")
        flat.frombytes(packed)
        runs: list[PostRun] = []
        at = 0
        while at < len(flat):
            post_id, count = flat[at], flat[at + 1]
            runs.append((post_id, flat[at + 2 : at + 2 + count]))
            at += 2 + count
        self._hub.deliver_many(prefix.decode(), runs)

    async def aclose(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self._client.aclose()
