"""MemoryNoticeBus: new-post notices inside one process, and NoticeHub, the local
dispatch both buses use (the Redis bus feeds it from one pub/sub connection).

Each listener has a small bounded queue. Publishing puts without waiting; a listener
whose queue is full is dropped (it gets nothing more and its stream closes, the client
reconnects and recounts), so a slow consumer never holds up fan-out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence

from feedloom.ports import PostRun

QUEUE_SIZE = 64


class HubListener:
    def __init__(self, topics: Sequence[str], size: int) -> None:
        self.topics = tuple(dict.fromkeys(topics))
        self._queue: asyncio.Queue[int] = asyncio.Queue(size)
        self._dropped = False

    @property
    def dropped(self) -> bool:
        return self._dropped

    def offer(self, post_id: int) -> bool:
        """False when full: the listener is then dropped for good."""
        if self._dropped:
            return False
        try:
            self._queue.put_nowait(post_id)
        except asyncio.QueueFull:
            self._dropped = True
            return False
        return True

    async def next(self, timeout_s: float) -> int | None:
        if self._dropped:
            return None
        try:
            return await asyncio.wait_for(self._queue.get(), timeout_s)
        except TimeoutError:
            return None


class NoticeHub:
    """Topic -> the listeners of this process."""

    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self._by_topic: defaultdict[str, set[HubListener]] = defaultdict(set)
        self._queue_size = queue_size

    def topics(self) -> set[str]:
        return set(self._by_topic)

    def listens_under(self, prefix: str) -> bool:
        return any(topic.startswith(prefix) for topic in self._by_topic)

    def deliver_many(self, prefix: str, runs: Sequence[PostRun]) -> None:
        """Each run's post for topics `prefix` + key of its keys; free when nobody
        listens."""
        if not self.listens_under(prefix):
            return
        by_topic = self._by_topic
        for post_id, keys in runs:
            for key in keys:
                topic = f"{prefix}{key}"
                if topic in by_topic:
                    self.deliver([topic], post_id)

    def deliver(self, topics: Sequence[str], post_id: int) -> None:
        for listener in {li for topic in topics for li in self._by_topic.get(topic, ())}:
            if not listener.offer(post_id):
                self.remove(listener)

    def add(self, topics: Sequence[str]) -> HubListener:
        listener = HubListener(topics, self._queue_size)
        for topic in listener.topics:
            self._by_topic[topic].add(listener)
        return listener

    def remove(self, listener: HubListener) -> list[str]:
        """Unregister; returns the topics nobody listens to any more."""
        emptied = []
        for topic in listener.topics:
            listeners = self._by_topic.get(topic)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._by_topic[topic]
                    emptied.append(topic)
        return emptied


class MemoryNoticeBus:
    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self._hub = NoticeHub(queue_size)

    async def publish(self, topics: Sequence[str], post_id: int) -> None:
        self._hub.deliver(topics, post_id)

    async def publish_many(self, prefix: str, runs: Sequence[PostRun]) -> None:
        self._hub.deliver_many(prefix, runs)

    @contextlib.asynccontextmanager
    async def listen(self, topics: Sequence[str]) -> AsyncIterator[HubListener]:
        listener = self._hub.add(topics)
        try:
            yield listener
        finally:
            self._hub.remove(listener)
