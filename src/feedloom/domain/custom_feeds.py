"""The records behind lists, saved feeds and generators (docs/FEEDS.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedloom.domain.feed_definitions import FeedDefinition, ReplyPolicy


@dataclass(frozen=True, slots=True)
class FeedList:
    id: int
    owner_id: int
    title: str
    replies: ReplyPolicy
    exclusive: bool  # members' posts leave the owner's home feed
    created_at: datetime
    members: int = 0


@dataclass(frozen=True, slots=True)
class SavedFeed:
    id: int
    owner_id: int
    name: str
    definition: FeedDefinition
    created_at: datetime
    pinned: bool = False
    position: int = 0


@dataclass(frozen=True, slots=True)
class FeedGenerator:
    id: int
    owner_id: int
    uri: str
    name: str
    description: str
    secret: str  # signs every skeleton request (domain/generators.py)
    feedback: bool  # the generator asked for interaction feedback
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Keyed:
    """A create's Idempotency-Key and the hash of its request (write/idempotency.py)."""

    key: str | None
    request_hash: str
