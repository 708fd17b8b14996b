"""Cache ports: everything here may lose all it holds at any time and is rebuilt from
the durable store (in-process on the embedded default, Redis in production)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol, TypeVar

from feedloom.domain.model import Counts, Event
from feedloom.domain.timeline import PostRun
from feedloom.ports.records import Delivery, Lane, RateDecision, RateRule


class TimelineStore(Protocol):
    """Home timelines: capped, newest-first, duplicate-free post IDs per user."""

    async def read(self, user_id: int, before: int | None, limit: int) -> list[int] | None:
        """IDs older than `before`, newest first; None when the user has no timeline."""
        ...

    async def read_page(
        self, user_id: int, before: int | None, limit: int
    ) -> tuple[list[int], bool] | None:
        """Like `read`, and whether the read reached the end of a complete timeline
        (nothing older exists anywhere, see `replace`)."""
        ...

    async def replace(self, user_id: int, post_ids: Sequence[int], complete: bool = False) -> None:
        """Store a rebuilt timeline (possibly empty: it still exists afterwards).
        `complete`: it holds every post its reader may see; it stops being complete when
        trimmed at the cap or by `mark_incomplete`."""
        ...

    async def mark_incomplete(self, user_id: int) -> None: ...

    async def insert_if_present(self, user_ids: Sequence[int], post_id: int) -> int:
        """Fan-out: add one post to each of these timelines that exists, keeping the
        cap; returns how many timelines received it (inactive users are skipped)."""
        ...

    async def insert_many(self, runs: Sequence[PostRun]) -> int:
        """Fan-out of a batch: each run's post inserted into its owners' timelines as
        `insert_if_present` would, in as few round trips as the store allows; returns
        the inserts written: distinct (timeline, post) pairs whose timeline exists."""
        ...

    async def hold(self, user_id: int) -> None:
        """A rebuild starts: make sure a timeline exists (empty and incomplete if it
        did not), so fan-outs running meanwhile land in it; `rebuild` then merges."""
        ...

    async def rebuild(self, user_id: int, post_ids: Sequence[int], complete: bool) -> None:
        """Store a rebuilt timeline merged with what it holds now (fan-outs that ran
        while the rebuild read), keeping the cap; `complete` as for `replace`."""
        ...

    async def merge_if_present(self, user_id: int, post_ids: Sequence[int]) -> None: ...
    async def remove(self, user_id: int, post_ids: Sequence[int]) -> None: ...
    async def drop(self, user_id: int) -> None: ...
    async def touch(self, user_id: int) -> None:
        """The user is active: push back the expiry of an inactive user's timeline."""
        ...

    async def expires_in(self, user_id: int) -> float | None:
        """Seconds until the timeline expires (an inactive reader's); None when there
        is no timeline or it never expires. For operators (`feedloom feeds show`)."""
        ...


class AuthorTimelineStore(Protocol):
    """Recent post IDs per author: what readers pull for big accounts, and what
    timeline rebuilds merge. The same lists keyed by tag (`CachePorts.tag_timelines`)
    hold a tag's recent public posts, which followers of the tag pull."""

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        """Newest-first IDs of each author present in the cache; absent ones omitted."""
        ...

    async def replace(self, author_id: int, post_ids: Sequence[int]) -> None: ...
    async def push_if_present(self, author_id: int, post_id: int) -> None: ...
    async def push_many(self, pairs: Sequence[tuple[int, int]]) -> None:
        """(author, post) pairs pushed as `push_if_present` would, in one go."""
        ...

    async def remove(self, author_id: int, post_id: int) -> None: ...
    async def drop(self, author_id: int) -> None:
        """Forget the list: the next read refills it from the durable store."""
        ...


V = TypeVar("V")


class ViewCache(Protocol[V]):
    """Cache-aside store of shared views (posts, user profiles): kept as objects in
    process, serialized by the adapter where the cache is remote."""

    async def get_many(self, keys: Sequence[int]) -> dict[int, V]: ...
    async def set_many(self, items: Mapping[int, V]) -> None: ...
    async def delete_many(self, keys: Sequence[int]) -> None: ...


class CounterStore(Protocol):
    """Displayed like/comment counts; the truth lives in Engagement. A hot post's
    counter is sharded into sub-counters (so its writes spread), summed on read."""

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """Totals, sub-counters included, in ONE round trip (a cluster: two for hot posts)."""
        ...

    async def set_many(self, counts: Mapping[int, Counts]) -> None:
        """Replace totals (a recount): sub-counters are dropped, the post is unsharded."""
        ...

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        """Apply deltas to counters already cached; absent ones are recounted from
        the truth on their next read, so a delta never becomes a wrong total. A post in
        `sharded` is marked hot and its delta goes to that sub-counter (post -> index).
        Every post given is added to the touched set."""
        ...

    async def demote(self, post_ids: Sequence[int]) -> None:
        """Fold a cooled post's sub-counters back into its counter."""
        ...

    async def take_touched(self, limit: int) -> list[int]:
        """Remove and return up to `limit` posts whose counts changed since taken."""
        ...


class RecordCache(Protocol):
    """Cache-aside records guarded by a generation, so a filler that read the durable
    store before a write committed can never store what that write made stale.

    A reader calls `get`, on a miss loads the truth and calls `put` with the generation
    `get` returned; a writer, after its commit, calls `invalidate`, which bumps the
    generation and drops the record. `put` stores nothing if the generation moved in
    between. `invalidate` raises when it cannot reach the cache: a write must not
    report success while a stale record may survive it."""

    async def get_many(self, keys: Sequence[str]) -> list[tuple[bytes | None, int]]:
        """(record or None, generation) per key, in ONE round trip."""
        ...

    async def put(self, key: str, value: bytes, generation: int) -> None: ...
    async def append_if_present(self, key: str, data: bytes) -> None:
        """Append to a cached record (write-through of an append-only change) and bump
        the generation; a missing record stays missing."""
        ...

    async def invalidate(self, keys: Sequence[str]) -> None: ...


class FeedSessionStore(Protocol):
    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None: ...
    async def load(self, session_id: str) -> list[int] | None: ...


class RateLimiter(Protocol):
    """Moving-window limits per (rule, key), shared by every process of a deployment."""

    async def hit(self, rule: RateRule, key: str, once: str | None = None) -> RateDecision:
        """Charge one hit to `key` under `rule`, unless the window is full (then nothing
        is charged). `once` names a request that may arrive several times (a client's
        Idempotency-Key): while its first charge stands, every later or concurrent hit
        with the same `once` is allowed free of charge; a refused first hit leaves no
        trace, so the retry is charged (and judged) afresh."""
        ...

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        """Charge each (rule, key) in order exactly as that many `hit` calls without
        `once` would (hits on one key in the same call count one after the other),
        answering only whether each was allowed: one round trip for the lot where the
        store allows (the content check charges a whole consumed batch at once)."""
        ...


class EventQueue(Protocol):
    async def publish(self, events: Sequence[Event], lane: Lane) -> None: ...
    async def consume(
        self, lane: Lane, consumer: str, count: int, block_ms: int
    ) -> list[Delivery]: ...
    def working_on(
        self, consumer: str, deliveries: Sequence[Delivery]
    ) -> AbstractAsyncContextManager[None]:
        """While inside, the consumer is busy with these deliveries, however long it
        takes: no other consumer takes them over. Once outside (acknowledged, failed or
        dead), unacknowledged ones are delivered again after the queue's claim time."""
        ...

    async def ack(self, deliveries: Sequence[Delivery]) -> None: ...
    async def lag(self) -> dict[str, int]:
        """Events waiting per lane (for /metrics and for tests that wait on fan-out)."""
        ...

    async def epochs(self) -> dict[str, str]:
        """Per lane, a token that changes whenever the lane's stream is created anew
        (it was lost): events sent under an older epoch must be sent again. Calling it
        also detects a lost stream and recreates it."""
        ...

    async def oldest_age_s(self) -> dict[str, float]:
        """Per lane, seconds since the oldest event still waiting was queued (0 if none)."""
        ...


class NoticeListener(Protocol):
    """One open stream's subscription (see NoticeBus.listen)."""

    @property
    def dropped(self) -> bool:
        """It fell too far behind and receives nothing more: close the stream."""
        ...

    async def next(self, timeout_s: float) -> int | None:
        """The post ID of the next notice on any of its topics; None on timeout."""
        ...


class NoticeBus(Protocol):
    """New-post notices by topic (a reader, an author), fire and forget: a listener
    that is not there misses them (the stream recounts from the caches on connect), and
    a slow listener is dropped, never waited for. In-process on the embedded default;
    Redis pub/sub across API and worker processes."""

    async def publish(self, topics: Sequence[str], post_id: int) -> None: ...
    async def publish_many(self, prefix: str, runs: Sequence[PostRun]) -> None:
        """A fan-out batch: each run's post to topics `prefix` + key of its keys, in one
        message however many (nearly free when nobody listens)."""
        ...

    def listen(self, topics: Sequence[str]) -> AbstractAsyncContextManager[NoticeListener]: ...
