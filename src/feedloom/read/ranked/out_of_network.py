"""Ranked feed, candidates from outside the people the reader follows: posts several of
their followees liked lately, and posts trending today.

Both come from caches, never from a scan: the followees' likes are their cached records
of recent likes (lookups/likes.py, ONE round trip for the sample; a missing record is
rebuilt from an index range of that person's likes), the trending posts are the top of
the trending store (one read of a sketch or a sorted set). Their views come through the
shared view cache. Only `feed.out_of_network_followees` followees are asked, a sample
that changes every hour, so a reader following thousands costs the same as one
following fifty.

Every candidate passes `out_of_network_filter` (domain/visibility.py): public, by an
account the reader neither follows, blocks, is blocked by, nor mutes. Muted or blocked
followees' likes do not count. The ranker scores them with the rest; re-ranking gives
them at most `feed.out_of_network_share` of the slots (ranking/rerank.py, `interleave`).

A session keeps its recommendations' reasons beside its list (`reasons_key`), as flat
integers: post ID, how many likers follow (0: trending), the likers' IDs.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from feedloom.domain.model import FeedItem, Post
from feedloom.domain.trending import WINDOWS
from feedloom.domain.visibility import FilterReason, out_of_network_filter
from feedloom.lookups.cached_views import Views
from feedloom.lookups.likes import Likes
from feedloom.ports import TrendingStore
from feedloom.read.viewer import Reader

LIKED_BY, TRENDING = "liked_by", "trending"
SHOWN_LIKERS = 3  # followees named on an item: "liked by A, B and C"
TRENDING_WINDOW_S = WINDOWS["24h"]


@dataclass(frozen=True, slots=True)
class Reason:
    kind: str  # LIKED_BY or TRENDING
    likers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OutOfNetworkConfig:
    share: float  # of the ranked list's slots; 0 turns recommendations off
    min_likers: int  # followees who must have liked a post
    followees: int  # followees whose recent likes are read, per session
    candidates: int  # recommendations ranked per session, at most


@dataclass
class Recommended:
    posts: list[Post]
    reasons: dict[int, Reason]
    filtered: Counter[str]


class OutOfNetwork:
    def __init__(
        self, likes: Likes, trending: TrendingStore, views: Views, config: OutOfNetworkConfig
    ) -> None:
        self._likes, self._trending, self._views = likes, trending, views
        self.config = config

    async def gather(self, reader: Reader, now: datetime, enabled: bool = True) -> Recommended:
        """Recommendations for the reader, best reasons first (most liking followees,
        then trending score), each allowed by `out_of_network_filter`; none unless
        `enabled` (a saved feed's ranked page has none)."""
        if not enabled or self.config.share <= 0:
            return Recommended([], {}, Counter())
        liked, trending = await asyncio.gather(
            self._liked_by_followees(reader, now),
            self._trending.top(TRENDING_WINDOW_S, now, self.config.candidates * 2),
        )
        reasons = dict(liked)
        for post_id, _ in trending:
            reasons.setdefault(post_id, Reason(TRENDING))
        loaded = await self._views.posts(list(reasons))
        kept: list[Post] = []
        filtered = Counter[str]()
        for post_id in reasons:
            post = loaded.get(post_id)
            why = (
                FilterReason.MISSING
                if post is None
                else out_of_network_filter(reader.context, post)
            )
            if why is not None:
                filtered[why.value] += 1
            elif post is not None and len(kept) < self.config.candidates:
                kept.append(post)
        return Recommended(kept, {post.id: reasons[post.id] for post in kept}, filtered)

    async def _liked_by_followees(self, reader: Reader, now: datetime) -> list[tuple[int, Reason]]:
        context = reader.context
        voters = sorted(context.following - context.muted - context.blocked)
        sample = hourly_sample(voters, self.config.followees, reader.user_id, now)
        records = await self._likes.recent_many(sample)
        likers: dict[int, list[int]] = {}
        for followee in sample:  # in the sample's order: the likers' order is stable
            for post_id in records[followee].post_ids:
                likers.setdefault(post_id, []).append(followee)
        several = [
            (post_id, who) for post_id, who in likers.items() if len(who) >= self.config.min_likers
        ]
        several.sort(key=lambda pair: (len(pair[1]), pair[0]), reverse=True)
        return [
            (post_id, Reason(LIKED_BY, tuple(who[:SHOWN_LIKERS])))
            for post_id, who in several[: self.config.candidates]
        ]

    async def explained(
        self, items: Sequence[FeedItem], reasons: Mapping[int, Reason]
    ) -> list[FeedItem]:
        """The items, each recommendation with its reason and the profiles it names."""
        named = {liker for reason in reasons.values() for liker in reason.likers}
        profiles = await self._views.profiles(sorted(named)) if named else {}
        explained = []
        for item in items:
            reason = reasons.get(item.entry_id)
            if reason is not None:
                who = tuple(profiles[p] for p in reason.likers if p in profiles)
                item = replace(item, reason=reason.kind, liked_by=who, source=reason.kind)
            explained.append(item)
        return explained


def hourly_sample(people: Sequence[int], size: int, reader_id: int, now: datetime) -> list[int]:
    """Up to `size` of `people` (sorted), a different sample every hour for each reader:
    a reader following thousands costs the same as one following `size`, and over a day
    many of their followees' likes are heard."""
    if len(people) <= size:
        return list(people)
    hour = int(now.timestamp() // 3600)
    return sorted(random.Random(f"{reader_id}:{hour}").sample(list(people), size))


def encode_reasons(reasons: Mapping[int, Reason]) -> list[int]:
    flat: list[int] = []
    for post_id, reason in reasons.items():
        flat += [post_id, len(reason.likers), *reason.likers]
    return flat


def decode_reasons(flat: Sequence[int] | None) -> dict[int, Reason]:
    """What `encode_reasons` stored; a list cut short (never written whole) ends early."""
    reasons: dict[int, Reason] = {}
    at, values = 0, list(flat or [])
    while at + 2 <= len(values):
        post_id, count = values[at], values[at + 1]
        likers = tuple(values[at + 2 : at + 2 + count])
        if len(likers) < count:
            break
        reasons[post_id] = Reason(LIKED_BY if count else TRENDING, likers)
        at += 2 + count
    return reasons


def reasons_key(session_key: str) -> str:
    return f"{session_key}:why"
