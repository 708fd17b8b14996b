"""Lists, saved feeds, generators and muted words in the durable store.

A create takes the owner's limit and answers what it did, so counting and inserting
are one transaction; with an Idempotency-Key (`Keyed`) a retry finds the first row
(`created_*` return it with False) and another request under the same key is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from feedloom.domain.custom_feeds import FeedGenerator, FeedList, Keyed, SavedFeed


class ListStore(Protocol):
    async def create_list(
        self, feed_list: FeedList, keyed: Keyed, max_lists: int
    ) -> tuple[FeedList, bool] | None:
        """The list and True; the first list of this key and False; None at the limit."""
        ...

    async def lists_of(self, owner_id: int) -> list[FeedList]: ...
    async def list_by_id(self, list_id: int) -> FeedList | None: ...
    async def update_list(self, feed_list: FeedList) -> None: ...
    async def delete_list(self, list_id: int) -> None: ...
    async def add_member(
        self, list_id: int, member_id: int, now: datetime, max_members: int
    ) -> bool | None:
        """True if added, False if a member already, None if the list is full."""
        ...

    async def remove_member(self, list_id: int, member_id: int) -> bool: ...
    async def members(self, list_id: int, limit: int) -> list[int]:
        """Newest members first."""
        ...

    async def exclusive_members(self, owner_id: int) -> list[int]:
        """Members of the owner's exclusive lists: they leave the owner's home feed."""
        ...


class SavedFeedStore(Protocol):
    async def create_feed(
        self, feed: SavedFeed, keyed: Keyed, max_feeds: int
    ) -> tuple[SavedFeed, bool] | None: ...
    async def feed_by_id(self, feed_id: int) -> SavedFeed | None: ...
    async def feeds_of(self, owner_id: int) -> list[SavedFeed]:
        """In the owner's order (position, then oldest first)."""
        ...

    async def delete_feed(self, feed_id: int) -> None: ...
    async def arrange_feeds(self, owner_id: int, order: Sequence[tuple[int, bool]]) -> None:
        """Positions in this order, each with its pinned flag (every feed of the owner)."""
        ...


class GeneratorStore(Protocol):
    async def create_generator(
        self, generator: FeedGenerator, keyed: Keyed
    ) -> tuple[FeedGenerator, bool]: ...
    async def generator_by_id(self, generator_id: int) -> FeedGenerator | None: ...
    async def generator_by_uri(self, uri: str) -> FeedGenerator | None: ...


class MutedWordStore(Protocol):
    async def muted_words(self, user_id: int) -> list[str]: ...
    async def set_muted_words(self, user_id: int, words: Sequence[str], now: datetime) -> None: ...


class ReaderChoices(Protocol):
    """What a reader chose to hide, loaded with their relations (lookups/reader_state.py)."""

    async def muted_words(self, user_id: int) -> list[str]: ...
    async def exclusive_members(self, owner_id: int) -> list[int]: ...
