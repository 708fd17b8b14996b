"""Ten-line fakes of the ports, one class per role, kept in dicts, lists and sets.

Use cases take these as they take the SQL and Redis adapters: structurally, through
the Protocols in `feedloom.ports`. State is public so a test can arrange and inspect it
directly. Where two roles share the truth (relation writes move follower counts and
what the graph reader sees), the reader fake is handed the writer's state.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Generic, Literal, TypeVar

from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import (
    Comment,
    Counts,
    Event,
    FeedOrder,
    Media,
    Post,
    PostDeleted,
    PostPublished,
    UserProfile,
    Visibility,
)
from feedloom.lookups.cached_views import Views
from feedloom.metrics import Metrics
from feedloom.ports import (
    Delivery,
    Erasure,
    Followee,
    Lane,
    OwnRelations,
    PostRun,
    RateDecision,
    RateRule,
    SessionRecord,
    StoredResponse,
    TagRecord,
)
from feedloom.ranking.affinity import AffinityState, InteractionKind, add_interaction
from feedloom.write.throttle import Throttle, YoungAccounts

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


V = TypeVar("V")


def clock() -> datetime:
    return NOW


def id_generator() -> IdGenerator:
    """IDs minted at NOW, increasing: a bigger ID is a newer post."""
    return IdGenerator(clock_ms=lambda: int(NOW.timestamp() * 1000))


def new_post(ids: IdGenerator, author_id: int, visibility: Visibility = Visibility.PUBLIC) -> Post:
    post_id = ids.next_id()
    return Post(post_id, author_id, f"post {post_id}", visibility, created_at_of(post_id))


def user(user_id: int, followers: int = 0, pulled: bool = False) -> UserProfile:
    return UserProfile(user_id, f"user{user_id}", f"User {user_id}", None, followers, 0, pulled)


def views_over(
    posts: FakePostStore,
    profiles: FakeProfileStore,
    post_cache: FakeViewCache[Post] | None = None,
) -> Views:
    """The real cache-aside lookup over fakes; pass `post_cache` to look inside it."""
    post_cache = post_cache if post_cache is not None else FakeViewCache[Post]()
    return Views(post_cache, FakeViewCache(), posts, profiles, Metrics())


# -- durable stores ----------------------------------------------------------------


class FakePostStore:
    """Posts by ID, with the outbox events and idempotency records their writes add."""

    def __init__(self, *posts: Post) -> None:
        self.by_id = {post.id: post for post in posts}
        self.outbox: list[Event] = []
        self.responses: dict[tuple[int, str], StoredResponse] = {}

    async def create_post(
        self,
        post: Post,
        idempotency_key: str | None,
        request_hash: str,
        now: datetime,
        kind: Literal["post", "comment"] = "post",
    ) -> StoredResponse:
        stored = StoredResponse(request_hash, post.id, kind)
        if idempotency_key is not None:
            stored = self.responses.setdefault((post.author_id, idempotency_key), stored)
        if stored.result_id == post.id:
            self.by_id[post.id] = post
            self.outbox.append(PostPublished(post.id, post.author_id))
        return stored

    async def stored_response(self, user_id: int, idempotency_key: str) -> StoredResponse | None:
        return self.responses.get((user_id, idempotency_key))

    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]:
        return {post_id: self.by_id[post_id] for post_id in post_ids if post_id in self.by_id}

    async def live_posts(self, post_ids: Sequence[int]) -> dict[int, int | None]:
        found = await self.posts(post_ids)
        return {
            post_id: post.reply_to_author for post_id, post in found.items() if not post.deleted
        }

    async def tombstone(self, post_id: int, now: datetime, rejected: bool = False) -> bool:
        post = self.by_id[post_id]
        if post.deleted:
            return False
        self.by_id[post_id] = replace(post, deleted=True)
        self.outbox.append(PostDeleted(post_id, post.author_id))
        return True


class FakePostArchive:
    """Live post IDs by author, read from a FakePostStore, newest first."""

    def __init__(self, posts: FakePostStore) -> None:
        self._posts = posts

    def _ids(self, authors: Sequence[int], before: int | None, after: int | None) -> list[int]:
        return sorted(
            (
                post.id
                for post in self._posts.by_id.values()
                if post.author_id in authors and not post.deleted
                if (before is None or post.id < before) and (after is None or post.id > after)
            ),
            reverse=True,
        )

    async def author_post_ids(
        self, author_ids: Sequence[int], before: int | None, limit_per_author: int
    ) -> dict[int, list[int]]:
        return {
            author: self._ids([author], before, None)[:limit_per_author] for author in author_ids
        }

    async def post_ids_by_authors(
        self, author_ids: Sequence[int], before: int | None, after: int | None, limit: int
    ) -> list[int]:
        return self._ids(author_ids, before, after)[:limit]


class FakeMentionResolver:
    """Accounts by lowercased username: (ID, username)."""

    def __init__(self, accounts: Mapping[str, tuple[int, str]] | None = None) -> None:
        self.accounts = dict(accounts or {})

    async def resolve_usernames(
        self, author_id: int, names: Sequence[str]
    ) -> dict[str, tuple[int, str]]:
        return {name: self.accounts[name] for name in names if name in self.accounts}


class FakeTags:
    """Tags: who follows which, and (post ID, tag ID) pairs of public posts."""

    def __init__(self) -> None:
        self.by_user: dict[int, list[TagRecord]] = {}
        self.tagged: list[tuple[int, int]] = []
        self.names: dict[str, TagRecord] = {}

    async def tags(self, names: Sequence[str]) -> dict[str, TagRecord]:
        return {name: self.names[name] for name in names if name in self.names}

    async def follow(self, user_id: int, name: str, now: datetime) -> bool:
        tag = self.names.setdefault(name, TagRecord(len(self.names) + 1, name, 0))
        followed = self.by_user.setdefault(user_id, [])
        if tag in followed:
            return False
        followed.insert(0, tag)
        return True

    async def unfollow(self, user_id: int, name: str) -> bool:
        followed = self.by_user.get(user_id, [])
        kept = [tag for tag in followed if tag.name != name]
        self.by_user[user_id] = kept
        return len(kept) != len(followed)

    async def followed(self, user_id: int, limit: int) -> list[TagRecord]:
        return self.by_user.get(user_id, [])[:limit]

    async def tag_post_ids(self, tag_id: int, before: int | None, limit: int) -> list[int]:
        return [post_id for post_id, _ in await self.tagged_post_ids([tag_id], before, limit)]

    async def tagged_post_ids(
        self, tag_ids: Sequence[int], before: int | None, limit: int
    ) -> list[tuple[int, int]]:
        found: dict[int, int] = {}
        for post_id, tag_id in sorted(self.tagged, reverse=True):
            if tag_id in tag_ids and (before is None or post_id < before):
                found.setdefault(post_id, tag_id)
        return list(found.items())[:limit]

    async def public_tags_of(self, post_ids: Sequence[int]) -> list[tuple[int, int]]:
        return [(tag_id, post_id) for post_id, tag_id in self.tagged if post_id in post_ids]

    async def tags_by_id(self, tag_ids: Sequence[int]) -> dict[int, TagRecord]:
        return {tag.id: tag for tag in self.names.values() if tag.id in tag_ids}

    async def used_between(
        self, author_id: int, tag_ids: Sequence[int], after: int, before: int
    ) -> set[int]:
        return set()


class FakeMediaStore:
    def __init__(self) -> None:
        self.owners: dict[int, int] = {}
        self.by_id: dict[int, Media] = {}
        self.uploaded: set[int] = set()

    async def create_media(self, media: Media, owner_id: int, now: datetime) -> None:
        self.by_id[media.id], self.owners[media.id] = media, owner_id

    async def media_owned_by(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        return [
            self.by_id[i]
            for i in media_ids
            if self.owners.get(i) == owner_id and i in self.uploaded
        ]

    async def mark_uploaded(self, media_id: int, width: int, height: int, now: datetime) -> bool:
        if media_id in self.uploaded or media_id not in self.by_id:
            return False
        self.uploaded.add(media_id)
        return True

    async def forget_upload(self, media_id: int) -> None:
        self.uploaded.discard(media_id)

    async def describe_media(self, owner_id: int, media_id: int, alt: str) -> Media | None:
        if self.owners.get(media_id) != owner_id:
            return None
        self.by_id[media_id] = replace(self.by_id[media_id], alt=alt)
        return self.by_id[media_id]

    async def media_by_id(self, media_id: int) -> Media | None:
        return self.by_id.get(media_id)


class FakeProfileStore:
    def __init__(self, *profiles: UserProfile) -> None:
        self.by_id = {profile.id: profile for profile in profiles}

    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]:
        return {user_id: self.by_id[user_id] for user_id in user_ids if user_id in self.by_id}

    def count_follow(self, follower_id: int, followee_id: int, delta: int) -> None:
        follower, followee = self.by_id[follower_id], self.by_id[followee_id]
        self.by_id[follower_id] = replace(follower, following=follower.following + delta)
        self.by_id[followee_id] = replace(followee, followers=followee.followers + delta)


class FakeFanoutModes:
    """Writes the pushed/pulled flag into the profiles it is given."""

    def __init__(self, profiles: FakeProfileStore) -> None:
        self._profiles = profiles
        self.changes: list[tuple[int, bool]] = []

    async def set_pulled(self, user_id: int, pulled: bool, now: datetime) -> None:
        self._profiles.by_id[user_id] = replace(self._profiles.by_id[user_id], pulled=pulled)
        self.changes.append((user_id, pulled))


class FakePreferenceStore:
    def __init__(self) -> None:
        self.orders: dict[int, FeedOrder | None] = {}

    async def feed_order(self, user_id: int) -> FeedOrder | None:
        return self.orders.get(user_id)

    async def set_feed_order(self, user_id: int, order: FeedOrder | None) -> None:
        self.orders[user_id] = order


class FakeRelationStore:
    """(actor, target) pairs; follows move the follower counts in `profiles`, as SQL does."""

    def __init__(self, profiles: FakeProfileStore) -> None:
        self._profiles = profiles
        self.follows: set[tuple[int, int]] = set()
        self.blocks: set[tuple[int, int]] = set()
        self.mutes: set[tuple[int, int]] = set()

    async def follow(
        self, follower_id: int, followee_id: int, now: datetime, reposts: bool = True
    ) -> bool:
        return self._follows(follower_id, followee_id, add=True)

    async def follow_reposts(self, follower_id: int, followee_id: int, reposts: bool) -> bool:
        return False

    async def unfollow(self, follower_id: int, followee_id: int) -> bool:
        return self._follows(follower_id, followee_id, add=False)

    async def block(self, blocker_id: int, blocked_id: int, now: datetime) -> bool:
        self._follows(blocker_id, blocked_id, add=False)
        self._follows(blocked_id, blocker_id, add=False)
        return _toggle(self.blocks, (blocker_id, blocked_id), add=True)

    async def unblock(self, blocker_id: int, blocked_id: int) -> bool:
        return _toggle(self.blocks, (blocker_id, blocked_id), add=False)

    async def mute(
        self, muter_id: int, muted_id: int, now: datetime, notifications: bool = True
    ) -> bool:
        return _toggle(self.mutes, (muter_id, muted_id), add=True)

    async def unmute(self, muter_id: int, muted_id: int) -> bool:
        return _toggle(self.mutes, (muter_id, muted_id), add=False)

    def _follows(self, follower_id: int, followee_id: int, add: bool) -> bool:
        changed = _toggle(self.follows, (follower_id, followee_id), add)
        if changed:
            self._profiles.count_follow(follower_id, followee_id, 1 if add else -1)
        return changed


def _toggle(pairs: set[tuple[int, int]], pair: tuple[int, int], add: bool) -> bool:
    if (pair in pairs) == add:
        return False
    (pairs.add if add else pairs.discard)(pair)
    return True


class FakeGraphReader:
    """Reads what a FakeRelationStore wrote; pulled flags come from the profiles."""

    def __init__(self, relations: FakeRelationStore, profiles: FakeProfileStore) -> None:
        self._relations, self._profiles = relations, profiles

    async def followees(self, user_id: int) -> list[Followee]:
        ids = sorted(b for a, b in self._relations.follows if a == user_id)
        return [Followee(i, self._profiles.by_id[i].pulled) for i in ids]

    async def blocked_either_way(self, user_id: int) -> set[int]:
        return {b if a == user_id else a for a, b in self._relations.blocks if user_id in (a, b)}

    async def muted(self, user_id: int) -> set[int]:
        return {b for a, b in self._relations.mutes if a == user_id}

    async def own_relations(self, user_id: int) -> OwnRelations:
        return OwnRelations(
            await self.followees(user_id),
            await self.blocked_either_way(user_id),
            await self.muted(user_id),
        )

    async def is_following(self, follower_id: int, followee_id: int) -> bool:
        return (follower_id, followee_id) in self._relations.follows

    async def is_blocked_either_way(self, a: int, b: int) -> bool:
        return b in await self.blocked_either_way(a)


class FakeReposts:
    """No reposts: what ReaderStates asks of the store for `reposted_by_me`."""

    async def repost(self, repost: Post, now: datetime) -> int:
        raise NotImplementedError

    async def unrepost(self, user_id: int, original_id: int, now: datetime) -> int | None:
        raise NotImplementedError

    async def reposted(self, user_id: int, limit: int) -> list[int]:
        return []

    async def reposted_among(self, user_id: int, original_ids: Sequence[int]) -> set[int]:
        return set()


class FakeReplyCounts:
    """Which replies were counted on and off their parents."""

    def __init__(self) -> None:
        self.counted: list[tuple[int, int]] = []  # (reply, parent)
        self.uncounted: list[int] = []

    async def added(self, reply: Post, parent: Post) -> None:
        self.counted.append((reply.id, parent.id))

    async def removed(self, reply: Post) -> None:
        self.uncounted.append(reply.id)


class FakeFollowerLister:
    """Keyset pages over (follower, followee) pairs; `calls` records each page asked for."""

    def __init__(self, follows: set[tuple[int, int]]) -> None:
        self._follows = follows
        self.calls: list[tuple[int, int]] = []
        self.lists_asked: list[list[int]] = []
        self.also_asked: list[list[tuple[int, int]]] = []

    async def follower_batch(self, followee_id: int, after: int, limit: int) -> list[int]:
        self.calls.append((after, limit))
        return sorted(a for a, b in self._follows if b == followee_id and a > after)[:limit]

    async def follower_lists(self, followee_ids: Sequence[int]) -> dict[int, list[int]]:
        self.lists_asked.append(sorted(followee_ids))
        lists: dict[int, list[int]] = {}
        for follower, followee in sorted(self._follows):
            if followee in followee_ids:
                lists.setdefault(followee, []).append(follower)
        return lists

    async def followers_also_following(
        self, pairs: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], set[int]]:
        self.also_asked.append(sorted(pairs))
        found: dict[tuple[int, int], set[int]] = {}
        for author, other in pairs:
            both = {a for a, b in self._follows if b == author and (a, other) in self._follows}
            if both:
                found[(author, other)] = both
        return found


class FakeOutbox:
    """Events in commit order (seq = position + 1); `relayed` counts how many were
    claimed, `sent` holds each sent seq's (lane, epoch), `finished` the done seqs."""

    def __init__(self, *events: Event) -> None:
        self.events = [replace(event, seq=n) for n, event in enumerate(events, 1)]
        self.relayed = 0
        self.sent: dict[int, tuple[str, str]] = {}
        self.finished: set[int] = set()

    async def claim_unsent(self, limit: int, now: datetime) -> list[Event]:
        batch = self.events[self.relayed : self.relayed + limit]
        self.relayed += len(batch)
        return batch

    async def claim_lost(
        self, epochs: Mapping[str, str], sent_before: datetime, limit: int, now: datetime
    ) -> list[Event]:
        lost = [
            e
            for e in self.events[: self.relayed]
            if e.seq not in self.finished
            and self.sent.get(e.seq, ("", ""))[1] != epochs.get(self.sent.get(e.seq, ("", ""))[0])
        ]
        return lost[:limit]

    async def mark_sent(self, seqs: Sequence[int], lane: str, epoch: str) -> None:
        for seq in seqs:
            self.sent[seq] = (lane, epoch)

    async def done(self, seqs: Sequence[int]) -> None:
        self.finished.update(seqs)

    async def add(self, events: Sequence[Event], now: datetime) -> None:
        start = len(self.events) + 1
        self.events += [replace(e, seq=n) for n, e in enumerate(events, start)]

    async def pending(self) -> int:
        return len(self.events) - len(self.finished)

    async def oldest(self, sent: bool) -> datetime | None:
        return None


class FakeEngagement:
    """Likes as (post, user) pairs; comments in a list."""

    def __init__(self) -> None:
        self.likes: set[tuple[int, int]] = set()
        self.comment_list: list[Comment] = []
        self.responses: dict[tuple[int, str], StoredResponse] = {}

    async def like(
        self, post_id: int, user_id: int, now: datetime, notify: int | None = None
    ) -> bool:
        return _toggle(self.likes, (post_id, user_id), add=True)

    async def unlike(self, post_id: int, user_id: int, notify: int | None = None) -> bool:
        return _toggle(self.likes, (post_id, user_id), add=False)

    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]:
        return {post_id for post_id in post_ids if (post_id, user_id) in self.likes}

    async def liked_since(
        self, user_ids: Sequence[int], since_post_id: int, limit: int
    ) -> dict[int, list[int]]:
        return {
            user_id: sorted((p for p, u in self.likes if u == user_id and p >= since_post_id))[
                ::-1
            ][:limit]
            for user_id in user_ids
        }

    async def comments_by(
        self, post_ids: Sequence[int], authors: Collection[int]
    ) -> dict[int, int]:
        by = Counter(c.post_id for c in self.comment_list if c.author_id in authors)
        return {post_id: by[post_id] for post_id in post_ids if by[post_id]}

    async def commented_post_ids(self, author_id: int, after: int, limit: int) -> list[int]:
        mine = {c.post_id for c in self.comment_list if c.author_id == author_id}
        return sorted(post_id for post_id in mine if post_id > after)[:limit]

    async def true_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        likes = Counter(post_id for post_id, _ in self.likes)
        comments = Counter(c.post_id for c in self.comment_list)
        return {i: Counts(likes=likes[i], comments=comments[i]) for i in post_ids}

    async def flagged_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        return {}  # the fake knows no accounts: none is flagged


class FakeAffinityStore:
    def __init__(self) -> None:
        self.by_pair: dict[tuple[int, int], AffinityState] = {}

    async def states(self, reader_id: int, author_ids: Sequence[int]) -> dict[int, AffinityState]:
        pairs = self.by_pair
        return {a: pairs[(reader_id, a)] for a in author_ids if (reader_id, a) in pairs}

    async def add(
        self, reader_id: int, author_id: int, kind: InteractionKind, at: datetime, half_life: float
    ) -> AffinityState:
        state = add_interaction(self.by_pair.get((reader_id, author_id)), kind, at, half_life)
        self.by_pair[(reader_id, author_id)] = state
        return state

    async def rebuild(self, half_life_days: float, progress: object = None) -> int:
        return len(self.by_pair)


# -- caches -------------------------------------------------------------------------


class FakeTimelineStore:
    """Home timelines as sets of post IDs; a user with no entry has no timeline."""

    def __init__(self) -> None:
        self.ids: dict[int, set[int]] = {}

        self.complete: set[int] = set()

    async def read(self, user_id: int, before: int | None, limit: int) -> list[int] | None:
        if user_id not in self.ids:
            return None
        older = (i for i in self.ids[user_id] if before is None or i < before)
        return sorted(older, reverse=True)[:limit]

    async def read_page(
        self, user_id: int, before: int | None, limit: int
    ) -> tuple[list[int], bool] | None:
        ids = await self.read(user_id, before, limit + 1)
        if ids is None:
            return None
        return ids[:limit], len(ids) <= limit and user_id in self.complete

    async def replace(self, user_id: int, post_ids: Sequence[int], complete: bool = False) -> None:
        self.ids[user_id] = set(post_ids)
        (self.complete.add if complete else self.complete.discard)(user_id)

    async def mark_incomplete(self, user_id: int) -> None:
        self.complete.discard(user_id)

    async def insert_if_present(self, user_ids: Sequence[int], post_id: int) -> int:
        present = [user_id for user_id in user_ids if user_id in self.ids]
        for user_id in present:
            self.ids[user_id].add(post_id)
        return len(present)

    async def insert_many(self, runs: Sequence[PostRun]) -> int:
        present = [(user, post) for post, users in runs for user in users if user in self.ids]
        for user_id, post_id in present:
            self.ids[user_id].add(post_id)
        return len(present)

    async def hold(self, user_id: int) -> None:
        self.ids.setdefault(user_id, set())

    async def rebuild(self, user_id: int, post_ids: Sequence[int], complete: bool) -> None:
        await self.replace(user_id, [*post_ids, *self.ids.get(user_id, set())], complete)

    async def merge_if_present(self, user_id: int, post_ids: Sequence[int]) -> None:
        if user_id in self.ids:
            self.ids[user_id].update(post_ids)

    async def remove(self, user_id: int, post_ids: Sequence[int]) -> None:
        self.ids.get(user_id, set()).difference_update(post_ids)

    async def drop(self, user_id: int) -> None:
        self.ids.pop(user_id, None)

    async def expires_in(self, user_id: int) -> float | None:
        return None

    async def touch(self, user_id: int) -> None:
        pass


class FakeAuthorTimelineStore:
    """Newest-first post IDs per author; an author with no entry is not cached."""

    def __init__(self) -> None:
        self.ids: dict[int, list[int]] = {}

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        return {a: list(self.ids[a]) for a in author_ids if a in self.ids}

    async def replace(self, author_id: int, post_ids: Sequence[int]) -> None:
        self.ids[author_id] = list(post_ids)

    async def push_if_present(self, author_id: int, post_id: int) -> None:
        if author_id in self.ids and post_id not in self.ids[author_id]:
            self.ids[author_id].insert(0, post_id)

    async def push_many(self, pairs: Sequence[tuple[int, int]]) -> None:
        for author_id, post_id in pairs:
            await self.push_if_present(author_id, post_id)

    async def remove(self, author_id: int, post_id: int) -> None:
        if post_id in self.ids.get(author_id, []):
            self.ids[author_id].remove(post_id)

    async def drop(self, author_id: int) -> None:
        self.ids.pop(author_id, None)


class FakeRecordCache:
    """Generation-guarded records (ports.RecordCache) in two dicts."""

    def __init__(self) -> None:
        self.records: dict[str, bytes] = {}
        self.generations: Counter[str] = Counter()

    async def get_many(self, keys: Sequence[str]) -> list[tuple[bytes | None, int]]:
        return [(self.records.get(key), self.generations[key]) for key in keys]

    async def put(self, key: str, value: bytes, generation: int) -> None:
        if self.generations[key] == generation:
            self.records[key] = value

    async def append_if_present(self, key: str, data: bytes) -> None:
        self.generations[key] += 1
        if key in self.records:
            self.records[key] += data

    async def invalidate(self, keys: Sequence[str]) -> None:
        for key in keys:
            self.generations[key] += 1
            self.records.pop(key, None)


class FakeViewCache(Generic[V]):
    def __init__(self) -> None:
        self.data: dict[int, V] = {}

    async def get_many(self, keys: Sequence[int]) -> dict[int, V]:
        return {key: self.data[key] for key in keys if key in self.data}

    async def set_many(self, items: Mapping[int, V]) -> None:
        self.data.update(items)

    async def delete_many(self, keys: Sequence[int]) -> None:
        for key in keys:
            self.data.pop(key, None)


class FakeCounterStore:
    def __init__(self) -> None:
        self.counts: dict[int, Counts] = {}
        self.touched: set[int] = set()

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        return {i: self.counts[i] for i in post_ids if i in self.counts}

    async def set_many(self, counts: Mapping[int, Counts]) -> None:
        self.counts.update(counts)

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        for i, d in deltas.items():
            self.touched.add(i)
            if i in self.counts:
                c = self.counts[i]
                self.counts[i] = Counts(c.likes + d.likes, c.comments + d.comments)

    async def demote(self, post_ids: Sequence[int]) -> None:
        pass  # no sub-counters: sums are kept whole

    async def take_touched(self, limit: int) -> list[int]:
        taken = sorted(self.touched)[:limit]
        self.touched.difference_update(taken)
        return taken


class FakeViewerSketches:
    """Exact distinct viewers: a set per post."""

    def __init__(self) -> None:
        self.viewers: dict[int, set[int]] = {}

    async def served(self, viewer_id: int, post_ids: Sequence[int]) -> dict[int, int]:
        for post_id in post_ids:
            self.viewers.setdefault(post_id, set()).add(viewer_id)
        return {post_id: len(self.viewers[post_id]) for post_id in post_ids}


class FakeFeedSessionStore:
    def __init__(self) -> None:
        self.sessions: dict[str, list[int]] = {}

    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None:
        self.sessions[session_id] = list(post_ids)

    async def load(self, session_id: str) -> list[int] | None:
        return self.sessions.get(session_id)


class FakeRateLimiter:
    """Counts charged hits per "rule:key"; a `once` token is charged once; past the
    limit the whole window is the wait."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.charged_once: set[tuple[str, str]] = set()

    async def hit(self, rule: RateRule, key: str, once: str | None = None) -> RateDecision:
        name = f"{rule.name}:{key}"
        if once is not None and (name, once) in self.charged_once:
            return RateDecision(True, rule.amount, rule.amount - self.hits[name], 0)
        if self.hits[name] >= rule.amount:
            return RateDecision(False, rule.amount, 0, rule.window_s)
        self.hits[name] += 1
        if once is not None:
            self.charged_once.add((name, once))
        return RateDecision(True, rule.amount, rule.amount - self.hits[name], 0)

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        return [(await self.hit(rule, key)).allowed for rule, key in hits]


def throttle(limiter: FakeRateLimiter, young_share: float = 1.0, **per_minute: int) -> Throttle:
    """A Throttle over `limiter`: each action named gets that many per minute, every
    other 1,000; accounts younger than a day (by their ID) get `young_share` of it."""
    actions = ("posts", "comments", "likes", "follows", "media")
    signs = ("sign_in_per_address", "sign_in_per_account_address", "sign_in_per_account")
    names = (*actions, *signs, "sign_up_per_address")
    rules = {name: RateRule(name, per_minute.get(name, 1_000), 60) for name in names}
    return Throttle(limiter, rules, YoungAccounts(timedelta(days=1), young_share), clock)


class FakeEventQueue:
    """What was published, lane by lane, in order."""

    def __init__(self) -> None:
        self.published: list[tuple[Lane, list[Event]]] = []

    async def publish(self, events: Sequence[Event], lane: Lane) -> None:
        self.published.append((lane, list(events)))

    async def consume(self, lane: Lane, consumer: str, count: int, block_ms: int) -> list[Delivery]:
        return []

    @contextlib.asynccontextmanager
    async def working_on(
        self, consumer: str, deliveries: Sequence[Delivery]
    ) -> AsyncIterator[None]:
        yield

    async def ack(self, deliveries: Sequence[Delivery]) -> None:
        pass

    async def lag(self) -> dict[str, int]:
        return {}

    epoch = "e1"  # a test loses the stream by changing it

    async def epochs(self) -> dict[str, str]:
        return {"default": self.epoch, "bulk": self.epoch}

    async def oldest_age_s(self) -> dict[str, float]:
        return {}


class FakeObjectStore:
    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}

    async def put(self, name: str, content: bytes, content_type: str) -> None:
        self.objects[name] = content

    async def get(self, name: str) -> bytes | None:
        return self.objects.get(name)

    async def delete(self, names: Sequence[str]) -> None:
        for name in names:
            self.objects.pop(name, None)


class FakeAccountEraser:
    """Answers the Erasure a test arranged and remembers whom it erased (what the
    store does is the SQL contract's: tests/contract/test_sql_erasure.py)."""

    def __init__(self, erasure: Erasure) -> None:
        self.erasure = erasure
        self.erased: list[tuple[int, datetime]] = []
        self.files = list(erasure.media_files)  # the media rows, until erased

    async def media_files(self, user_id: int) -> list[str]:
        return list(self.files)

    async def erase_account(self, user_id: int, now: datetime) -> Erasure:
        self.erased.append((user_id, now))
        self.files = []
        return self.erasure


class FakeTokenStore:
    """Sessions by digest."""

    def __init__(self) -> None:
        self.sessions: dict[str, SessionRecord] = {}

    async def create_token(
        self,
        token_hash: str,
        user_id: int,
        now: datetime,
        app_id: int | None = None,
        scopes: str | None = None,
    ) -> None:
        record = SessionRecord(token_hash, user_id, now, None, scopes=scopes, app_id=app_id)
        self.sessions[token_hash] = record

    async def session_for_token(self, token_hash: str) -> SessionRecord | None:
        return self.sessions.get(token_hash)

    async def touch_token(self, token_hash: str, now: datetime) -> None:
        if token_hash in self.sessions:
            self.sessions[token_hash] = replace(self.sessions[token_hash], last_used_at=now)

    async def revoke_token(self, token_hash: str) -> None:
        self.sessions.pop(token_hash, None)

    async def sessions_of(self, user_id: int) -> list[SessionRecord]:
        mine = [s for s in self.sessions.values() if s.user_id == user_id]
        return sorted(mine, key=lambda s: s.created_at, reverse=True)

    async def revoke_other_tokens(self, user_id: int, keep_hash: str) -> list[str]:
        gone = [s.token_hash for s in await self.sessions_of(user_id) if s.token_hash != keep_hash]
        for digest in gone:
            del self.sessions[digest]
        return gone

    async def revoke_session(self, user_id: int, session_id: str) -> str | None:
        for s in await self.sessions_of(user_id):
            if s.session_id == session_id:
                del self.sessions[s.token_hash]
                return s.token_hash
        return None


class FakeActivityLog:
    def __init__(self) -> None:
        self.active: dict[int, datetime] = {}

    async def mark_active(self, user_id: int, now: datetime) -> None:
        self.active[user_id] = now


class FakeTrendingStore:
    """Posts trend as `trends` says, best first."""

    def __init__(self) -> None:
        self.trends: list[tuple[int, float]] = []

    async def add(self, weights: Mapping[int, float], at: datetime) -> None:
        return None

    async def top(self, window_s: int, at: datetime, limit: int) -> list[tuple[int, float]]:
        return self.trends[:limit]
