"""Moderation ports: the content check that runs before fan-out, and the durable
moderation queue (held posts, reports, suspicious accounts) moderators work through."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from feedloom.domain.model import Post, Role


@dataclass(frozen=True, slots=True)
class QueuedPost:
    """A post in the moderation queue: held by the check, reported by readers, or both."""

    post_id: int
    author_id: int
    held_reason: str | None  # None: not held, only reported
    reports: int
    reasons: tuple[str, ...]  # the reporters' reasons, newest first (a few)


class ContentCheck(Protocol):
    """Decides, between the outbox and fan-out, whether a post waits for a moderator.
    Pluggable: write/content_check.py has the default; any object with this method
    can replace it in the composition root."""

    async def reasons_to_hold(self, posts: Sequence[Post]) -> list[str | None]:
        """For each post of a consumed batch, in order: why it must be held, or None to
        fan it out. Judged as if one post after the other, so two copies in one batch
        count as two. Only the post is passed (its author's ID tells the account's age):
        the check runs on every fan-out, and reading each author's profile for it cost
        the worker a sixth of its time; a check that needs more looks it up itself."""
        ...


class ModerationStore(Protocol):
    async def hold(self, post_id: int, reason: str) -> bool:
        """Mark a live, never-checked post as held; False if it was not."""
        ...

    async def release(self, post_id: int, now: datetime) -> bool:
        """Mark a held post released and queue its PostPublished event again, in ONE
        transaction; False if it was not held."""
        ...

    async def report(self, post_id: int, reporter_id: int, reason: str, now: datetime) -> bool:
        """Store one report; False if this reporter had reported the post already."""
        ...

    async def queue(self, after: int | None, limit: int) -> list[QueuedPost]:
        """Live posts held or reported, by ID ascending above `after` (keyset pages)."""
        ...

    async def role_of(self, user_id: int) -> Role | None: ...
    async def set_flagged(self, user_id: int, at: datetime | None) -> None: ...
    async def flagged_among(self, user_ids: Sequence[int]) -> set[int]:
        """Which of these accounts are flagged as suspicious."""
        ...
