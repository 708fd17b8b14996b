"""Ranked feed, candidates and features: the pool of posts to rank, with what the score
needs to know about each.

The pool is the same newest-first candidate generation as the chronological feed
(pushed or rebuilt timeline, pulled accounts, own recent posts, the archive), taken
`feed.rank_candidates` deep in one go and filtered with the same read-time filters.
Features come in batches: counts from the counter cache, affinity in ONE query for the
reader and every author in the pool.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from feedloom.backend import Backend
from feedloom.domain.model import Counts, FeedItem, Post
from feedloom.domain.visibility import FilterReason, feed_filter
from feedloom.ranking import Candidate, Weights, explain_score
from feedloom.ranking.affinity import affinity_value
from feedloom.read.candidates import OWN, PULLED, PUSHED, gather_candidates
from feedloom.read.hydrate import load_posts
from feedloom.read.viewer import Reader
from feedloom.write.counting import displayed_counts


@dataclass
class Pool:
    posts: dict[int, Post] = field(default_factory=dict)  # visible ones, newest first
    sources: dict[int, str] = field(default_factory=dict)
    filtered: Counter[str] = field(default_factory=Counter)


async def candidate_pool(backend: Backend, reader: Reader) -> Pool:
    sources = await gather_candidates(backend, reader, None, backend.settings.feed.rank_candidates)
    posts, filtered = await visible_posts(backend, reader, list(sources))
    return Pool({post.id: post for post in posts}, sources, filtered)


async def visible_posts(
    backend: Backend, reader: Reader, post_ids: Sequence[int]
) -> tuple[list[Post], Counter[str]]:
    """The posts the reader may see in the home feed, in the given order, and how many
    were dropped for which reason (timelines are never trusted: this runs on every read)."""
    loaded = await load_posts(backend, post_ids)
    visible: list[Post] = []
    filtered: Counter[str] = Counter()
    for post_id in post_ids:
        post = loaded.get(post_id)
        reason = FilterReason.MISSING if post is None else feed_filter(reader.context, post)
        if reason is not None:
            filtered[reason.value] += 1
            backend.metrics.filtered.labels(reason.value).inc()
        elif post is not None:
            visible.append(post)
    return visible, filtered


async def features_of(
    backend: Backend, reader_id: int, posts: Sequence[Post], now: datetime
) -> list[Candidate]:
    post_ids = [post.id for post in posts]
    counts = await displayed_counts(
        post_ids, backend.counters, backend.engagement, backend.counter_buffer
    )
    authors = list({post.author_id for post in posts} - {reader_id})
    states = await backend.affinities.states(reader_id, authors)
    half_life = backend.settings.feed.affinity_half_life_days
    return [
        Candidate(
            post_id=str(post.id),
            author_id=str(post.author_id),
            created_at=post.created_at,
            affinity=affinity_value(states.get(post.author_id), now, half_life),
            likes=counts.get(post.id, Counts()).likes,
            comments=counts.get(post.id, Counts()).comments,
        )
        for post in posts
    ]


def weights_of(backend: Backend) -> Weights:
    weights = backend.settings.feed.weights
    return Weights(weights.affinity, weights.engagement, weights.half_life_hours)


def with_scores(
    items: Iterable[FeedItem], candidates: Mapping[int, Candidate], weights: Weights, now: datetime
) -> list[FeedItem]:
    """Attach each item's score and its parts (what explain shows and the log keeps)."""
    scored = []
    for item in items:
        candidate = candidates[item.post.id]
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
    return PUSHED
