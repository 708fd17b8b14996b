"""Ranked feed, candidates and features: the pool of posts to rank, with what the score
needs to know about each.

The pool is the same newest-first candidate generation as the chronological feed
(pushed or rebuilt timeline, pulled accounts, own recent posts, the archive), taken
`feed.rank_candidates` deep in one go and filtered with the same read-time filter.
Features come in batches: counts from the counter cache, affinity in ONE query for the
reader and every author in the pool.

A repost is ranked as an entry of its own (its ID, its time): on its original's
engagement, and on the reader's affinity with the reposter, whom they follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from feedloom.domain.model import TAG_SOURCE, Counts, FeedItem, Post
from feedloom.domain.visibility import followed_tag
from feedloom.lookups.counts import DisplayedCounts
from feedloom.ports import AffinityStore, Engagement
from feedloom.ranking import Candidate, Weights, explain_score
from feedloom.ranking.affinity import affinity_value
from feedloom.read.candidates import OWN, PULLED, PUSHED
from feedloom.read.viewer import Reader


class Features:
    def __init__(
        self,
        counts: DisplayedCounts,
        engagement: Engagement,
        affinities: AffinityStore,
        half_life_days: float,
    ) -> None:
        self._counts, self._engagement = counts, engagement
        self._affinities, self._half_life = affinities, half_life_days

    async def of(self, reader_id: int, posts: Sequence[Post], now: datetime) -> list[Candidate]:
        counts = await self._ranked_counts(list({post.shown.id for post in posts}))
        authors = list({post.author_id for post in posts} - {reader_id})
        states = await self._affinities.states(reader_id, authors)
        return [
            Candidate(
                post_id=str(post.id),
                author_id=str(post.author_id),
                created_at=post.created_at,
                affinity=affinity_value(states.get(post.author_id), now, self._half_life),
                likes=counts.get(post.shown.id, Counts()).likes,
                comments=counts.get(post.shown.id, Counts()).comments,
            )
            for post in posts
        ]

    async def _ranked_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """The displayed counts less the engagement of accounts flagged as suspicious:
        theirs does not count toward ranking. Read from the truth at ranking time, so a
        flag (or its removal) takes effect on the next ranked session, for past likes
        too. One query per session, beside the affinity query: a session is ranked
        once, its later pages reuse the order."""
        counts = dict(await self._counts.get(post_ids))
        flagged = await self._engagement.flagged_counts(post_ids)
        for post_id, off in flagged.items():
            shown = counts.get(post_id, Counts())
            counts[post_id] = Counts(
                max(0, shown.likes - off.likes), max(0, shown.comments - off.comments)
            )
        return counts


def with_scores(
    items: Iterable[FeedItem], candidates: Sequence[Candidate], weights: Weights, now: datetime
) -> list[FeedItem]:
    """Attach each item's score and its parts (what explain shows and the log keeps)."""
    by_id: Mapping[int, Candidate] = {int(c.post_id): c for c in candidates}
    scored = []
    for item in items:
        candidate = by_id[item.entry_id]
        parts = explain_score(candidate, weights, now)
        extra = {
            "affinity_term": parts.affinity_term,
            "engagement_term": parts.engagement_term,
            "decay": parts.decay,
            "age_hours": parts.age_hours,
            "affinity": candidate.affinity,
            "likes": float(candidate.likes),
            "comments": float(candidate.comments),
        }
        scored.append(replace(item, score=parts.score, extra=extra))
    return scored


def source_by_relation(reader: Reader, post: Post) -> str:
    """Where a post comes from, as far as the reader's relations tell: later session pages
    keep only post IDs, so they cannot know whether the timeline was rebuilt."""
    if post.author_id == reader.user_id:
        return OWN
    if post.author_id in reader.pulled_followees:
        return PULLED
    if post.author_id not in reader.context.following:
        tag = followed_tag(reader.context, post)
        if tag is not None:
            return TAG_SOURCE + tag
    return PUSHED
