"""An operator's hands on the home timelines: look at one, rebuild it, clear it.

Timelines are a cache of post IDs (lookups/timelines.py rebuilds one on a read miss),
so all three are safe while the service runs: a rebuild writes what the next read's
rebuild would, from the followees the store holds; a cleared timeline is rebuilt on its
reader's next read. (A rebuild racing a fan-out of the same post can miss it, as a
read's rebuild can: the post still reaches the reader from the author timelines and
the store; README, "Known limits".)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial

from feedloom.domain.errors import NotFound
from feedloom.gather import bounded
from feedloom.lookups.cached_views import Views
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.ports import AccountAdmin, GraphReader, TimelineStore

USER_PAGE = 500
Progress = Callable[[int], None]  # told how many more timelines are done


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    post_id: int
    author: str  # the username whose post it is, "?" when the post is gone
    pulled: bool  # its author is pulled now: new posts reach readers at read time


@dataclass(frozen=True, slots=True)
class TimelineSnapshot:
    user_id: int
    length: int
    complete: bool  # it holds everything the reader may see (domain/timeline.py)
    expires_in_s: float | None
    entries: list[TimelineEntry]


class FeedUpkeep:
    def __init__(
        self,
        accounts: AccountAdmin,
        graph: GraphReader,
        timelines: TimelineStore,
        rebuilder: TimelineRebuilder,
        views: Views,
        timeline_length: int,
    ) -> None:
        self._accounts, self._graph, self._timelines = accounts, graph, timelines
        self._rebuilder, self._views, self._length = rebuilder, views, timeline_length

    async def show(self, user_id: int, limit: int) -> TimelineSnapshot | None:
        """The newest `limit` entries and the whole timeline's length; None if the
        reader has no timeline (never read, expired, or cleared)."""
        page = await self._timelines.read_page(user_id, None, self._length)
        if page is None:
            return None
        ids, complete = page
        shown = ids[:limit]
        posts = await self._views.posts(shown)
        authors = await self._views.profiles(list({post.author_id for post in posts.values()}))
        entries = []
        for post_id in shown:
            post = posts.get(post_id)
            author = authors.get(post.author_id) if post else None
            name = author.username if author else "?"
            entries.append(TimelineEntry(post_id, name, bool(author and author.pulled)))
        expires = await self._timelines.expires_in(user_id)
        return TimelineSnapshot(user_id, len(ids), complete, expires, entries)

    async def build(self, user_ids: list[int], concurrency: int, done: Progress) -> None:
        """Rebuild each timeline as a read miss would, `concurrency` at a time."""
        await bounded(
            [partial(self._build_one, user_id, done) for user_id in user_ids], concurrency
        )

    async def clear(self, user_ids: list[int], done: Progress) -> None:
        for user_id in user_ids:
            await self._timelines.drop(user_id)
            done(1)

    async def readers(self, username: str | None) -> list[int]:
        """The one account named, or (None) every account not deleted."""
        if username is not None:
            record = await self._accounts.account(username)
            if record is None:
                raise NotFound(f"no account named {username!r}")
            return [record.user_id]
        return [user_id async for page in self.every_user() for user_id in page]

    async def every_user(self) -> AsyncIterator[list[int]]:
        """Every account not deleted, in ID order, a page at a time."""
        after = 0
        while page := await self._accounts.user_ids(after, USER_PAGE):
            yield page
            after = page[-1]

    async def _build_one(self, user_id: int, done: Progress) -> None:
        followees = await self._graph.followees(user_id)
        follows_pulled = any(followee.pulled for followee in followees)
        await self._rebuilder.rebuild(user_id, [f.user_id for f in followees], follows_pulled)
        done(1)
