"""GET /v1/lists/{id}/feed and GET /v1/feeds/{id}/items: every feed through the home
feed's pipeline (read/home_feed.py: viewer → candidates → visible → page → hydrate).

A definition (domain/feed_definitions.py) becomes a `FeedView`: its sources as one
candidate source (the home feed's candidates for `home`, members' author timelines
merged at read time for `list:` and `author:`, the tag's index for `tag:`), its
filters on the reader's context.
A list feed is the definition of one list source, read in time order, with the list's
reply policy. A generator source is read by the generator (read/generator_feed.py).
"""

from __future__ import annotations

from feedloom.domain.custom_feeds import FeedList
from feedloom.domain.errors import NotFound
from feedloom.domain.feed_definitions import FeedDefinition, FeedFilters, SourceKind
from feedloom.domain.model import FeedOrder
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.ports import PostArchive
from feedloom.ports.feeds import ListStore, SavedFeedStore
from feedloom.ports.tags import TagStore
from feedloom.read.candidates import Candidates
from feedloom.read.feed_page import FeedPage
from feedloom.read.feed_sources import AuthorsSource, CandidateSource, MergedSource, TagSource
from feedloom.read.generator_feed import GeneratorFeed
from feedloom.read.home_feed import FeedView, HomeFeed
from feedloom.read.timing import StageTimer

LIST, AUTHOR = "list", "author"


class Feeds:
    def __init__(
        self,
        home: HomeFeed,
        home_candidates: Candidates,
        lists: ListStore,
        saved: SavedFeedStore,
        generator_feed: GeneratorFeed,
        author_timelines: AuthorTimelines,
        archive: PostArchive,
        tags: TagStore,
        max_members: int,
    ) -> None:
        self._home, self._home_candidates = home, home_candidates
        self._lists, self._saved, self._generator_feed = lists, saved, generator_feed
        self._author_timelines, self._archive = author_timelines, archive
        self._tags, self._max_members = tags, max_members

    async def list_page(
        self, user_id: int, list_id: int, limit: int | None, cursor: str | None, timer: StageTimer
    ) -> FeedPage:
        feed_list = await self._own_list(user_id, list_id)
        members = await self._lists.members(list_id, self._max_members)
        filters = FeedFilters(replies=feed_list.replies, members=frozenset(members))
        view = FeedView(self._authors(members, LIST), filters, shown=frozenset(members))
        return await self._home.page(
            user_id, limit, cursor, timer, FeedOrder.CHRONOLOGICAL, view=view
        )

    async def saved_page(
        self, user_id: int, feed_id: int, limit: int | None, cursor: str | None, timer: StageTimer
    ) -> FeedPage:
        feed = await self._saved.feed_by_id(feed_id)
        if feed is None or feed.owner_id != user_id:
            raise NotFound("no such feed")
        return await self.page(user_id, feed.definition, limit, cursor, timer)

    async def page(
        self,
        user_id: int,
        definition: FeedDefinition,
        limit: int | None,
        cursor: str | None,
        timer: StageTimer,
    ) -> FeedPage:
        generator = definition.generator
        if generator is not None:
            found = await self._generator_feed.by_uri(generator.value)
            count = limit or self._home.default_limit
            return await self._generator_feed.page(user_id, found, count, cursor)
        view = await self._view(user_id, definition)
        return await self._home.page(user_id, limit, cursor, timer, definition.order, view=view)

    async def _view(self, user_id: int, definition: FeedDefinition) -> FeedView:
        sources: list[CandidateSource] = []
        shown: set[int] = set()
        also_from: set[int] = set()
        for source in definition.sources:
            if source.kind is SourceKind.HOME:
                sources.append(self._home_candidates)
            elif source.kind is SourceKind.LIST:
                # A list deleted since the feed was saved reads as empty.
                found = await self._lists.list_by_id(source.number)
                mine = found is not None and found.owner_id == user_id
                members = (
                    await self._lists.members(source.number, self._max_members) if mine else []
                )
                sources.append(self._authors(members, LIST))
                shown.update(members)
            elif source.kind is SourceKind.AUTHOR:
                sources.append(self._authors([source.number], AUTHOR))
                shown.add(source.number)
                also_from.add(source.number)
            elif source.kind is SourceKind.TAG:
                sources.append(TagSource(self._tags, source.value))
        return FeedView(
            MergedSource(sources),
            definition.filters,
            frozenset(shown),
            frozenset(also_from),
            anyone=bool(definition.of_kind(SourceKind.TAG)),
        )

    def _authors(self, authors: list[int], label: str) -> AuthorsSource:
        return AuthorsSource(self._author_timelines, self._archive, authors, label)

    async def _own_list(self, user_id: int, list_id: int) -> FeedList:
        found = await self._lists.list_by_id(list_id)
        if found is None or found.owner_id != user_id:
            raise NotFound("no such list")
        return found
