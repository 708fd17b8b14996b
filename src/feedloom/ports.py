"""Ports: the small interfaces the write and read paths need from the outside world.

Adapters (memory, sql, redis) implement them structurally; nothing inherits. The
durable store is split by aggregate (accounts, posts, graph, engagement, outbox), each a
transaction boundary of its own; the caches (timelines, views, counters, sessions) may
lose everything at any time and are rebuilt from the durable store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from feedloom.domain.model import Comment, Counts, Event, FeedOrder, Media, Post, UserProfile
from feedloom.ranking import Candidate, Weights
from feedloom.ranking.affinity import AffinityState, InteractionKind

Clock = Callable[[], datetime]
Lane = Literal["default", "bulk"]


@dataclass(frozen=True, slots=True)
class Credentials:
    user_id: int
    password_hash: str


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """What an idempotent request answered the first time."""

    request_hash: str
    post_id: int


@dataclass(frozen=True, slots=True)
class Followee:
    user_id: int
    pulled: bool


@dataclass(frozen=True, slots=True)
class NewUser:
    """A user created by a bulk import (demo data, `feedloom import-graph`)."""

    id: int
    username: str
    display_name: str
    password_hash: str
    avatar: str | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """One event handed to a worker; `receipt` acknowledges it."""

    event: Event
    lane: Lane
    receipt: str


class Ranker(Protocol):
    """Orders ranking candidates best first (`feedloom.ranking.rank` by default); runs on
    a worker thread under a time budget, so it may be slow or fail without harm."""

    def __call__(
        self, candidates: Sequence[Candidate], weights: Weights, *, now: datetime
    ) -> list[Candidate]: ...


# -- durable store ---------------------------------------------------------------


class Accounts(Protocol):
    async def create_user(
        self, user_id: int, username: str, display_name: str, password_hash: str, now: datetime
    ) -> None: ...
    async def credentials(self, username: str) -> Credentials | None: ...
    async def create_token(self, token_hash: str, user_id: int, now: datetime) -> None: ...
    async def user_for_token(self, token_hash: str) -> int | None: ...
    async def revoke_token(self, token_hash: str) -> None: ...
    async def mark_active(self, user_id: int, now: datetime) -> None: ...
    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]: ...
    async def set_pulled(self, user_id: int, pulled: bool) -> None: ...
    async def feed_order(self, user_id: int) -> FeedOrder | None: ...
    async def set_feed_order(self, user_id: int, order: FeedOrder | None) -> None: ...


class Posts(Protocol):
    async def create_post(
        self, post: Post, idempotency_key: str | None, request_hash: str, now: datetime
    ) -> StoredResponse:
        """Write post, outbox event and idempotency record in ONE transaction.
        If the key already exists, write nothing and return what it stored."""
        ...

    async def stored_response(
        self, user_id: int, idempotency_key: str
    ) -> StoredResponse | None: ...
    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]: ...
    async def tombstone(self, post_id: int, now: datetime) -> bool:
        """Mark deleted and queue a PostDeleted event, in one transaction."""
        ...

    async def author_post_ids(
        self, author_ids: Sequence[int], before: int | None, limit_per_author: int
    ) -> dict[int, list[int]]: ...
    async def post_ids_by_authors(
        self, author_ids: Sequence[int], before: int | None, after: int | None, limit: int
    ) -> list[int]: ...
    async def recent_post_ids(self, after: int, limit: int) -> list[int]:
        """Live posts newer than `after` (an ID, so a time), newest first."""
        ...

    async def create_media(self, media: Media, owner_id: int, now: datetime) -> None: ...
    async def media_owned_by(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]: ...
    async def media_by_id(self, media_id: int) -> Media | None: ...
    async def purge_idempotency_keys(self, older_than: datetime) -> int: ...


class SocialGraph(Protocol):
    async def follow(self, follower_id: int, followee_id: int, now: datetime) -> bool: ...
    async def unfollow(self, follower_id: int, followee_id: int) -> bool: ...
    async def block(self, blocker_id: int, blocked_id: int, now: datetime) -> bool:
        """Record the block and remove follows in both directions, atomically."""
        ...

    async def unblock(self, blocker_id: int, blocked_id: int) -> bool: ...
    async def mute(self, muter_id: int, muted_id: int, now: datetime) -> bool: ...
    async def unmute(self, muter_id: int, muted_id: int) -> bool: ...
    async def is_blocked_either_way(self, a: int, b: int) -> bool: ...
    async def followees(self, user_id: int) -> list[Followee]: ...
    async def blocked_either_way(self, user_id: int) -> set[int]: ...
    async def muted(self, user_id: int) -> set[int]: ...
    async def is_following(self, follower_id: int, followee_id: int) -> bool: ...
    async def follower_batch(self, followee_id: int, after: int, limit: int) -> list[int]: ...


class Engagement(Protocol):
    async def like(self, post_id: int, user_id: int, now: datetime) -> bool: ...
    async def unlike(self, post_id: int, user_id: int) -> bool: ...
    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]: ...
    async def add_comment(self, comment: Comment, idempotency_key: str | None) -> Comment:
        """Store the comment; with a key already used by this author, store nothing
        and return the comment stored the first time."""
        ...

    async def comments(self, post_id: int, before: int | None, limit: int) -> list[Comment]: ...
    async def true_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]: ...


class AffinityStore(Protocol):
    """Reader -> author affinity state (ranking/affinity.py), one row per pair: a batch
    feature kept fresh online. Interactions with one's own posts are never stored."""

    async def states(self, reader_id: int, author_ids: Sequence[int]) -> dict[int, AffinityState]:
        """ONE batched read; authors the reader never interacted with are absent."""
        ...

    async def add(
        self,
        reader_id: int,
        author_id: int,
        kind: InteractionKind,
        at: datetime,
        half_life_days: float,
    ) -> AffinityState:
        """Fold one like or comment into the pair's state; concurrent adds all count."""
        ...

    async def rebuild(self, half_life_days: float) -> int:
        """Recompute every pair from the stored likes and comments and replace all
        states; returns how many pairs were written."""
        ...


class BulkImporter(Protocol):
    async def load(
        self,
        new_users: Sequence[NewUser],
        edges: Sequence[tuple[int, int]],
        now: datetime,
        is_pulled: Callable[[int], bool],
        progress: Callable[[int], None] = ...,
    ) -> None:
        """Insert users and follow edges, skipping existing ones, in one transaction;
        then recompute follow counts and pushed/pulled status."""
        ...

    async def load_history(
        self,
        posts: Sequence[Post],
        likes: Sequence[tuple[int, int]],
        comments: Sequence[Comment],
        now: datetime,
    ) -> None:
        """Insert past posts, likes (post, user) and comments in one transaction,
        skipping existing ones. No outbox events: history is not fanned out, timelines
        pick it up when they are (re)built from author timelines."""
        ...


class Outbox(Protocol):
    async def relay(self, publish: Callable[[Sequence[Event]], Awaitable[None]], limit: int) -> int:
        """Hand up to `limit` unpublished events to `publish`, then mark them
        published; concurrent relays never hand out the same event twice."""
        ...

    async def pending(self) -> int: ...


# -- caches (may lose everything; rebuilt from the durable store) ----------------


class TimelineStore(Protocol):
    """Home timelines: capped, newest-first, duplicate-free post IDs per user."""

    async def read(self, user_id: int, before: int | None, limit: int) -> list[int] | None:
        """IDs older than `before`, newest first; None when the user has no timeline."""
        ...

    async def replace(self, user_id: int, post_ids: Sequence[int]) -> None:
        """Store a rebuilt timeline (possibly empty: it still exists afterwards)."""
        ...

    async def insert_if_present(self, user_ids: Sequence[int], post_id: int) -> int:
        """Fan-out: add one post to each of these timelines that exists, keeping the
        cap; returns how many timelines received it (inactive users are skipped)."""
        ...

    async def merge_if_present(self, user_id: int, post_ids: Sequence[int]) -> None: ...
    async def remove(self, user_id: int, post_ids: Sequence[int]) -> None: ...
    async def drop(self, user_id: int) -> None: ...
    async def touch(self, user_id: int) -> None:
        """The user is active: push back the expiry of an inactive user's timeline."""
        ...


class AuthorTimelineStore(Protocol):
    """Recent post IDs per author: what readers pull for big accounts, and what
    timeline rebuilds merge."""

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        """Newest-first IDs of each author present in the cache; absent ones omitted."""
        ...

    async def replace(self, author_id: int, post_ids: Sequence[int]) -> None: ...
    async def push_if_present(self, author_id: int, post_id: int) -> None: ...
    async def remove(self, author_id: int, post_id: int) -> None: ...


class ViewCache(Protocol):
    """Cache-aside store of serialized shared views (posts, user profiles)."""

    async def get_many(self, keys: Sequence[int]) -> dict[int, bytes]: ...
    async def set_many(self, items: Mapping[int, bytes]) -> None: ...
    async def delete_many(self, keys: Sequence[int]) -> None: ...


class CounterStore(Protocol):
    """Displayed like/comment counts; the truth lives in Engagement."""

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]: ...
    async def set_many(self, counts: Mapping[int, Counts]) -> None: ...
    async def increment_if_present(self, deltas: Mapping[int, Counts]) -> None:
        """Apply deltas to counters already cached; absent ones are recounted from
        the truth on their next read, so a delta never becomes a wrong total."""
        ...


class FeedSessionStore(Protocol):
    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None: ...
    async def load(self, session_id: str) -> list[int] | None: ...


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int, window_s: int) -> int:
        """Count one hit; 0 if allowed, else seconds until the window frees up."""
        ...


class EventQueue(Protocol):
    async def publish(self, events: Sequence[Event], lane: Lane) -> None: ...
    async def consume(
        self, lane: Lane, consumer: str, count: int, block_ms: int
    ) -> list[Delivery]: ...
    async def ack(self, deliveries: Sequence[Delivery]) -> None: ...
    async def lag(self) -> dict[str, int]:
        """Events waiting per lane (for /metrics and for tests that wait on fan-out)."""
        ...
