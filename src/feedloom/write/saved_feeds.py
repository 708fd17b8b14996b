"""Saved feeds (POST /v1/feeds, GET|DELETE /v1/feeds/{id}, GET|PUT /v1/me/feeds) and
muted words (GET|PUT /v1/me/muted_words).

A definition is checked whole before anything is written (422 naming what is wrong):
its lists must be the owner's, its authors visible to them, its generator registered.
Muted words are part of the owner's cached relations (lookups/reader_state.py), so a
change invalidates that record after its commit and counts on the next read.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.custom_feeds import Keyed, SavedFeed
from feedloom.domain.errors import Conflict, InvalidInput, NotFound
from feedloom.domain.feed_definitions import (
    FeedDefinition,
    SourceKind,
    definition_json,
    normalize_words,
)
from feedloom.domain.ids import IdGenerator
from feedloom.lookups.access import Access
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import Clock
from feedloom.ports.feeds import GeneratorStore, ListStore, MutedWordStore, SavedFeedStore
from feedloom.write.idempotency import request_hash

MAX_NAME_CHARS = 64


class SavedFeeds:
    def __init__(
        self,
        store: SavedFeedStore,
        lists: ListStore,
        generators: GeneratorStore,
        access: Access,
        ids: IdGenerator,
        clock: Clock,
        max_per_user: int,
    ) -> None:
        self._store, self._lists, self._generators = store, lists, generators
        self._access, self._ids, self._clock = access, ids, clock
        self._max = max_per_user

    async def create(
        self, owner_id: int, name: str, definition: FeedDefinition, key: str | None
    ) -> tuple[SavedFeed, bool]:
        await self._check_sources(owner_id, definition)
        new = SavedFeed(self._ids.next_id(), owner_id, name, definition, self._clock())
        keyed = Keyed(key, request_hash("feed", name, definition_json(definition)))
        created = await self._store.create_feed(new, keyed, self._max)
        if created is None:
            raise Conflict(f"you have {self._max} saved feeds, the most allowed")
        return created

    async def get(self, owner_id: int, feed_id: int) -> SavedFeed:
        found = await self._store.feed_by_id(feed_id)
        if found is None or found.owner_id != owner_id:
            raise NotFound("no such feed")
        return found

    async def of(self, owner_id: int) -> list[SavedFeed]:
        return await self._store.feeds_of(owner_id)

    async def delete(self, owner_id: int, feed_id: int) -> None:
        await self.get(owner_id, feed_id)
        await self._store.delete_feed(feed_id)

    async def arrange(self, owner_id: int, order: Sequence[tuple[int, bool]]) -> list[SavedFeed]:
        """Pin and order: `order` names every saved feed of the owner once."""
        mine = {feed.id for feed in await self._store.feeds_of(owner_id)}
        named = [feed_id for feed_id, _ in order]
        if len(set(named)) != len(named) or set(named) != mine:
            raise Conflict("list each of your saved feeds exactly once, in the order wanted")
        await self._store.arrange_feeds(owner_id, order)
        return await self._store.feeds_of(owner_id)

    async def _check_sources(self, owner_id: int, definition: FeedDefinition) -> None:
        """A source that names nothing you may read is 404, as an ID in a path is."""
        for source in definition.sources:
            if source.kind is SourceKind.LIST:
                found = await self._lists.list_by_id(source.number)
                if found is None or found.owner_id != owner_id:
                    raise NotFound(f"source {source}: not one of your lists")
            elif source.kind is SourceKind.AUTHOR:
                try:
                    await self._access.visible_profile(owner_id, source.number)
                except NotFound:
                    raise NotFound(f"source {source}: no such account") from None
            elif (
                source.kind is SourceKind.GENERATOR
                and await self._generators.generator_by_uri(source.value) is None
            ):
                raise NotFound(
                    f"source {source}: no generator registered with this URI "
                    "(POST /v1/generators first)"
                )


class MutedWords:
    def __init__(
        self, store: MutedWordStore, states: ReaderStates, clock: Clock, max_words: int
    ) -> None:
        self._store, self._states, self._clock, self._max = store, states, clock, max_words

    async def of(self, user_id: int) -> list[str]:
        return await self._store.muted_words(user_id)

    async def set(self, user_id: int, words: list[str]) -> list[str]:
        """Replace the user's muted words (idempotent: the same list twice is one state)."""
        cleaned = normalize_words(words)
        if len(cleaned) > self._max:
            raise InvalidInput(f"at most {self._max} muted words")
        await self._store.set_muted_words(user_id, cleaned, self._clock())
        await self._states.changed([user_id])
        return list(cleaned)
