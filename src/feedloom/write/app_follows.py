"""An app's follow graph in batches (POST /v1/apps/follows:batch): rows of
`{follower, followee, op}` by external IDs, each a follow or an unfollow.

A chunk is one transaction (SqlApps.apply_follows: follows made and removed, counts
kept in step). After it, as a single follow does (write/relations.py): each followee
whose count moved is re-decided pushed or pulled, cached relations and profiles are
forgotten, and each follower who gained a follow has its timeline dropped, so its next
read rebuilds it from its followees (with the new one's recent posts). A row naming an
unknown user, a block, or the same user twice is reported; the rest land. Follows and
unfollows are idempotent, so a batch may be sent again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from feedloom.domain.errors import FeedloomError, InvalidInput, NotFound
from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.gather import bounded
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import Clock, FanoutModes, TimelineStore
from feedloom.ports.apps import AppUsers, FollowOp
from feedloom.write.app_users import RowResult

CACHE_CONCURRENCY = 16


@dataclass(frozen=True, slots=True)
class FollowRow:
    follower: str
    followee: str
    op: str  # follow | unfollow


class AppFollowWrites:
    def __init__(
        self,
        users: AppUsers,
        fanout_modes: FanoutModes,
        views: Views,
        states: ReaderStates,
        timelines: TimelineStore,
        policy: FanoutPolicy,
        clock: Clock,
    ) -> None:
        self._users, self._fanout_modes, self._views = users, fanout_modes, views
        self._states, self._timelines = states, timelines
        self._policy, self._clock = policy, clock

    async def batch(
        self, app_id: int, rows: Sequence[FollowRow | FeedloomError], first: int = 0
    ) -> list[RowResult]:
        named = {
            ext
            for row in rows
            if isinstance(row, FollowRow)
            for ext in (row.follower, row.followee)
        }
        ids = await self._users.users_of(app_id, sorted(named))
        results: dict[int, RowResult] = {}
        pending: list[tuple[int, FollowOp]] = []
        for index, row in enumerate(rows, start=first):
            try:
                op = _op(row, ids)
            except FeedloomError as error:
                follower = row.follower if isinstance(row, FollowRow) else None
                results[index] = RowResult(index, follower, error=error)
                continue
            pending.append((index, op))
        for part in _without_repeats(pending):
            results.update(await self._apply(part, rows, first))
        return [results[index] for index in sorted(results)]

    async def _apply(
        self, part: list[tuple[int, FollowOp]], rows: Sequence[object], first: int
    ) -> dict[int, RowResult]:
        applied = await self._users.apply_follows([op for _, op in part], self._clock())
        results = {}
        for (index, op), changed, blocked in zip(
            part, applied.changed, applied.blocked, strict=True
        ):
            row = rows[index - first]
            external = row.follower if isinstance(row, FollowRow) else None
            if blocked:
                results[index] = RowResult(index, external, error=NotFound("no such user"))
                continue
            kind = ("followed" if op.follow else "unfollowed") if changed else "unchanged"
            results[index] = RowResult(index, external, op.follower_id, kind)
        made = [op for (_, op), changed in zip(part, applied.changed, strict=True) if changed]
        await self._settle(made, applied.pulled)
        return results

    async def _settle(self, made: list[FollowOp], counts: dict[int, tuple[int, bool]]) -> None:
        """The caches the committed chunk changed (each step idempotent)."""
        if not made:
            return
        modes_moved = False
        for followee, (followers, pulled) in counts.items():
            decided = self._policy.is_pulled(followers, pulled)
            if decided != pulled:
                await self._fanout_modes.set_pulled(followee, decided, self._clock())
                modes_moved = True
        if modes_moved:
            await self._states.modes_changed()
        moved = sorted({op.follower_id for op in made})
        everyone = sorted({*moved, *(op.followee_id for op in made)})
        await self._states.changed(moved)
        await self._views.forget_profiles(everyone)
        gained = sorted({op.follower_id for op in made if op.follow})
        await bounded([partial(self._timelines.drop, u) for u in gained], CACHE_CONCURRENCY)


def _op(row: FollowRow | FeedloomError, ids: dict[str, int]) -> FollowOp:
    if isinstance(row, FeedloomError):
        raise row
    if row.op not in ("follow", "unfollow"):
        raise InvalidInput('op must be "follow" or "unfollow"')
    missing = [ext for ext in (row.follower, row.followee) if ext not in ids]
    if missing:
        raise NotFound(f"the app has no user with external ID {missing[0]!r}")
    if row.follower == row.followee:
        raise InvalidInput("a user cannot follow themselves")
    return FollowOp(ids[row.follower], ids[row.followee], row.op == "follow")


def _without_repeats(pending: list[tuple[int, FollowOp]]) -> list[list[tuple[int, FollowOp]]]:
    """Split where a pair comes again, so each part touches a pair once and the rows
    take effect in order (a follow then an unfollow of the same pair ends unfollowed)."""
    parts: list[list[tuple[int, FollowOp]]] = [[]]
    seen: set[tuple[int, int]] = set()
    for index, op in pending:
        pair = (op.follower_id, op.followee_id)
        if pair in seen:
            parts.append([])
            seen = set()
        seen.add(pair)
        parts[-1].append((index, op))
    return [part for part in parts if part]
