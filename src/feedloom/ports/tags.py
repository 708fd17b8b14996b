"""Mentions and hashtags: what the write path resolves and records, what tag pages,
followed tags and notifications read (adapters/sql/tags.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Mention:
    """A post mentioned a user (a row of `post_mentions`)."""

    post_id: int
    user_id: int
    author_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TagRecord:
    id: int
    name: str
    posts_count: int  # live public posts with the tag


class MentionResolver(Protocol):
    async def resolve_usernames(
        self, author_id: int, names: Sequence[str]
    ) -> dict[str, tuple[int, str]]:
        """Lowercased username -> (ID, username as the account spells it), for live
        accounts with those names that do not block the author."""
        ...


class MentionLog(Protocol):
    """Durable mentions (written with their post): what notifications read."""

    async def mentions_in(self, post_ids: Sequence[int]) -> list[Mention]:
        """The mentions of these posts, by post then user."""
        ...

    async def mentions_of(self, user_id: int, before: int | None, limit: int) -> list[Mention]:
        """Mentions of a user in live posts, newest post first, keyset on post ID."""
        ...


class FollowedTags(Protocol):
    async def followed(self, user_id: int, limit: int) -> list[TagRecord]:
        """The user's followed tags, most recently followed first."""
        ...


class TaggedPosts(Protocol):
    async def tagged_post_ids(
        self, tag_ids: Sequence[int], before: int | None, limit: int
    ) -> list[tuple[int, int]]:
        """(post ID, tag ID) of live public posts with any of these tags, newest first
        (a post once, under the lowest of its tags' IDs)."""
        ...


class TagStore(Protocol):
    async def tags(self, names: Sequence[str]) -> dict[str, TagRecord]:
        """The tags of these names that were ever used."""
        ...

    async def follow(self, user_id: int, name: str, now: datetime) -> bool:
        """Follow the tag (made if new); whether anything changed."""
        ...

    async def unfollow(self, user_id: int, name: str) -> bool: ...
    async def followed(self, user_id: int, limit: int) -> list[TagRecord]: ...

    async def tag_post_ids(self, tag_id: int, before: int | None, limit: int) -> list[int]:
        """Live public posts with the tag, newest first, older than `before`."""
        ...

    async def tagged_post_ids(
        self, tag_ids: Sequence[int], before: int | None, limit: int
    ) -> list[tuple[int, int]]:
        """(post ID, tag ID) of live public posts with any of these tags, newest first
        (a post once, under the first of its tags found)."""
        ...

    async def public_tags_of(self, post_ids: Sequence[int]) -> list[tuple[int, int]]:
        """(tag ID, post ID) of these posts that `tagged_post_ids` would return: live,
        public, not held (what the fan-out adds to the tags' cached lists)."""
        ...

    async def tags_by_id(self, tag_ids: Sequence[int]) -> dict[int, TagRecord]: ...
    async def used_between(
        self, author_id: int, tag_ids: Sequence[int], after: int, before: int
    ) -> set[int]:
        """Which of these tags the author used in a live post between the two IDs."""
        ...
