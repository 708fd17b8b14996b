"""Import a follower graph (`feedloom import-graph`): users and follows from an edge CSV.

The steps, in order:

1. Parse the whole CSV (`capacity.graph.read_graph_csv`): a bad row fails here, with its
   line number, before anything is written.
2. Map every CSV ID to a username (`username_for`) and a Snowflake user ID. Usernames
   that already exist keep their user ID, so a re-import maps every CSV ID to the same
   user and adds nothing twice.
3. Bulk-load the new users and all edges in ONE transaction (`BulkImporter.load` skips
   existing rows, then recounts follows and re-decides pushed/pulled for every account).
   New users are active from the start (`last_active_at` is the import time).
4. Build the imported users' home timelines, in batches, through the `TimelineStore`
   port, so fan-out reaches them: a missing timeline, or one of a user who gained a
   follow, is rebuilt as a read would rebuild it. Only where timelines outlive this
   process (Redis); an in-process store is rebuilt on each user's first read instead.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.gather import bounded
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.ports import (
    AccountStore,
    BulkImporter,
    Clock,
    GraphReader,
    NewUser,
    ProfileStore,
    TimelineStore,
)

PLAIN_ID = re.compile(r"^[A-Za-z0-9_]{1,30}$")
LOOKUP_CONCURRENCY = 16
TIMELINE_BATCH = 500
PROFILE_BATCH = 1_000
T = TypeVar("T")
# (follower, followee) CSV IDs, as `capacity.graph` parses them; spelled out here
# because the write path never imports the capacity tools.
Edge = tuple[str, str]


class ImportProgress(Protocol):
    def stage(self, name: str, total: int) -> None: ...
    def advance(self, done: int) -> None: ...


class SilentProgress:
    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, done: int) -> None:
        pass


@dataclass(frozen=True, slots=True)
class ImportResult:
    users: int
    new_users: int
    edges: int
    timelines_built: int
    user_ids: dict[str, int]  # CSV ID -> user ID


def username_for(csv_id: str) -> str:
    """`u_<id>` when the ID fits the username rule (1-30 letters, digits, underscores);
    otherwise `h_` + 30 hex digits of its SHA-256. Both are 3-32 characters of
    `[A-Za-z0-9_]`, deterministic, and the two forms never collide with each other."""
    if PLAIN_ID.match(csv_id):
        return f"u_{csv_id}"
    return "h_" + hashlib.sha256(csv_id.encode()).hexdigest()[:30]


def graph_accounts(edges: Iterable[Edge]) -> list[str]:
    """Every CSV ID in the graph, in first-seen order."""
    seen: dict[str, None] = {}
    for follower, followee in edges:
        seen.setdefault(follower, None)
        seen.setdefault(followee, None)
    return list(seen)


class GraphImport:
    def __init__(
        self,
        accounts: AccountStore,
        profiles: ProfileStore,
        bulk: BulkImporter,
        graph: GraphReader,
        timelines: TimelineStore,
        rebuilder: TimelineRebuilder,
        states: ReaderStates,
        ids: IdGenerator,
        clock: Clock,
        policy: FanoutPolicy,
    ) -> None:
        self._accounts, self._profiles, self._bulk = accounts, profiles, bulk
        self._graph, self._timelines, self._rebuilder = graph, timelines, rebuilder
        self._states, self._ids, self._clock, self._policy = states, ids, clock, policy

    async def run(
        self,
        edges: Sequence[Edge],
        password_hash: str,
        *,
        build_timelines: bool,
        progress: ImportProgress | None = None,
    ) -> ImportResult:
        progress = progress or SilentProgress()
        accounts = graph_accounts(edges)
        names = {csv_id: username_for(csv_id) for csv_id in accounts}
        if len(set(names.values())) != len(names):
            raise ValueError("two CSV IDs map to the same username (SHA-256 prefix collision)")
        user_ids = await self._existing_user_ids(names, progress)
        new_users = [
            NewUser(self._ids.next_id(), name, name, password_hash)
            for csv_id, name in names.items()
            if csv_id not in user_ids
        ]
        csv_id_of = {name: csv_id for csv_id, name in names.items()}
        user_ids.update({csv_id_of[user.username]: user.id for user in new_users})
        id_edges = [(user_ids[a], user_ids[b]) for a, b in edges]
        existing = {user_ids[csv_id] for csv_id in names} - {user.id for user in new_users}
        following_before = await self._following_counts(sorted(existing)) if build_timelines else {}
        progress.stage("writing users and follows", len(new_users) + len(id_edges))
        await self._bulk.load(
            new_users,
            id_edges,
            self._clock(),
            lambda followers: self._policy.is_pulled(followers, False),
            progress.advance,
        )
        # Cached reader relations of everyone imported are stale, and so may be who is
        # pulled (the load re-decided it for every account).
        for start in range(0, len(user_ids), PROFILE_BATCH):
            await self._states.changed(list(user_ids.values())[start : start + PROFILE_BATCH])
        await self._states.modes_changed()
        built = 0
        if build_timelines:
            pulled = await self._pulled_among(list(user_ids.values()))
            fresh = _without_history({user.id for user in new_users}, id_edges, pulled)
            following_after = await self._following_counts(sorted(existing))
            unchanged = {u for u in existing if following_after.get(u) == following_before.get(u)}
            built = await self._build_timelines(list(user_ids.values()), fresh, unchanged, progress)
        return ImportResult(len(accounts), len(new_users), len(id_edges), built, user_ids)

    async def _existing_user_ids(
        self, names: dict[str, str], progress: ImportProgress
    ) -> dict[str, int]:
        """Users a previous import (or a registration) already created, by CSV ID."""
        progress.stage("looking up existing users", len(names))

        async def lookup(csv_id: str, name: str) -> tuple[str, int | None]:
            credentials = await self._accounts.credentials(name)
            progress.advance(1)
            return csv_id, None if credentials is None else credentials.user_id

        lookups = [partial(lookup, csv_id, name) for csv_id, name in names.items()]
        found = await bounded(lookups, LOOKUP_CONCURRENCY)
        return {csv_id: user_id for csv_id, user_id in found if user_id is not None}

    async def _pulled_among(self, user_ids: Sequence[int]) -> set[int]:
        pulled: set[int] = set()
        for start in range(0, len(user_ids), PROFILE_BATCH):
            profiles = await self._profiles.profiles(user_ids[start : start + PROFILE_BATCH])
            pulled.update(user_id for user_id, profile in profiles.items() if profile.pulled)
        return pulled

    async def _following_counts(self, user_ids: Sequence[int]) -> dict[int, int]:
        """How many accounts each user follows (the store keeps the count in step with the
        follows, in the same transaction). Follows only grow during an import, so a user
        whose count grew across it gained a follow."""
        counts: dict[int, int] = {}
        for start in range(0, len(user_ids), PROFILE_BATCH):
            profiles = await self._profiles.profiles(user_ids[start : start + PROFILE_BATCH])
            counts.update({user_id: profile.following for user_id, profile in profiles.items()})
        return counts

    async def _build_timelines(
        self,
        user_ids: list[int],
        fresh: set[int],
        unchanged: set[int],
        progress: ImportProgress,
    ) -> int:
        """Rebuild each user's timeline exactly as a read would on a cache miss, from the
        followees the store holds (which may include follows made outside this CSV). Two
        shortcuts: for a user in `fresh` that rebuild is known to be empty, so it is only
        stored; a user in `unchanged` (gained no follow) keeps a timeline that exists,
        since fan-out has kept it current. Returns how many timelines were written."""
        progress.stage("building home timelines", len(user_ids))
        written = 0

        async def build(user_id: int) -> None:
            nonlocal written
            progress.advance(1)
            if user_id in fresh:
                await self._timelines.replace(user_id, [], complete=True)
                written += 1
                return
            if user_id in unchanged and await self._timelines.read(user_id, None, 1) is not None:
                return
            written += 1
            followees = await self._graph.followees(user_id)
            follows_pulled = any(f.pulled for f in followees)
            await self._rebuilder.rebuild(user_id, [f.user_id for f in followees], follows_pulled)

        for start in range(0, len(user_ids), TIMELINE_BATCH):
            batch = user_ids[start : start + TIMELINE_BATCH]
            await bounded([partial(build, user_id) for user_id in batch], LOOKUP_CONCURRENCY)
        return written


def _without_history(
    new_ids: set[int], edges: Sequence[tuple[int, int]], pulled: set[int]
) -> set[int]:
    """New users who follow only new, pushed users: nobody they follow can have posted
    yet, so their rebuilt timeline is empty and complete, known without a query. (A new
    user's follows in the store are exactly this import's edges: it had none before.)"""
    fresh = set(new_ids)
    for follower, followee in edges:
        if followee not in new_ids or followee in pulled:
            fresh.discard(follower)
    return fresh
