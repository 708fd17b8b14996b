"""A recipient's notifications page and unread count.

`record → candidates → readable → visible post → page → hydrate`. The cached record
(lookups/notifications.py) holds the newest groups; a page past them is read from the
store. Every group is checked on every read, never trusted: a type filtered or turned
off, accounts blocked either way or muted since, a post deleted or no longer visible
to the recipient (a moderation item keeps showing, without its post).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from feedloom.domain.model import FeedItem, Post, UserProfile
from feedloom.domain.notifications import Group, NotificationType, readable
from feedloom.domain.visibility import ViewerContext, may_see
from feedloom.lookups.cached_views import Views
from feedloom.lookups.notifications import NotificationRecord, NotificationRecords
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import NotificationStore
from feedloom.read.hydrate import Hydrator

ALL_TYPES = frozenset(NotificationType)
UNREAD_CAP = 200  # unread_count counts up to this many groups (the cached ones)


@dataclass(frozen=True, slots=True)
class NotificationItem:
    group: Group
    accounts: list[UserProfile]
    post: FeedItem | None


@dataclass(frozen=True, slots=True)
class NotificationPage:
    items: list[NotificationItem]
    next_before: int | None
    unread_count: int
    read_up_to: int


class Notifications:
    def __init__(
        self,
        records: NotificationRecords,
        store: NotificationStore,
        states: ReaderStates,
        views: Views,
        hydrator: Hydrator,
    ) -> None:
        self._records, self._store, self._states = records, store, states
        self._views, self._hydrator = views, hydrator

    async def page(
        self,
        user_id: int,
        limit: int,
        before: int | None,
        wanted: frozenset[NotificationType] = ALL_TYPES,
    ) -> NotificationPage:
        record = await self._records.get(user_id)
        viewer = await self._viewer(user_id)
        kept: list[tuple[Group, Post | None]] = []
        more, cursor = True, before
        while len(kept) < limit and more:
            candidates, more = await self._candidates(user_id, record, cursor, limit)
            if not candidates:
                break
            cursor = candidates[-1].id
            kept += await self._visible(viewer, record, candidates, wanted)
        page = kept[:limit]
        next_before = page[-1][0].id if page and (len(kept) > limit or more) else None
        return NotificationPage(
            await self._hydrate(user_id, page),
            next_before,
            await self._unread(viewer, record),
            record.state.read_up_to,
        )

    async def unread_count(self, user_id: int) -> tuple[int, int]:
        """(unread groups, the read marker)."""
        record = await self._records.get(user_id)
        return await self._unread(await self._viewer(user_id), record), record.state.read_up_to

    async def live(self, user_id: int, group_id: int) -> tuple[int, NotificationItem | None]:
        """For a live event: the unread count, and the group with this ID as the page
        would show it (None: the marker moved, or the group is not shown or changed)."""
        record = await self._records.get(user_id)
        viewer = await self._viewer(user_id)
        unread = await self._unread(viewer, record)
        group = [g for g in record.groups if group_id and g.id == group_id]
        shown = await self._visible(viewer, record, group, ALL_TYPES)
        items = await self._hydrate(user_id, shown) if shown else []
        return unread, items[0] if items else None

    async def _unread(self, viewer: ViewerContext, record: NotificationRecord) -> int:
        marker = record.state.read_up_to
        newer = [group for group in record.groups if group.id > marker][:UNREAD_CAP]
        return len(await self._visible(viewer, record, newer, ALL_TYPES))

    async def _candidates(
        self, user_id: int, record: NotificationRecord, before: int | None, limit: int
    ) -> tuple[list[Group], bool]:
        """The next groups older than `before`, and whether more may follow."""
        cached = [g for g in record.groups if before is None or g.id < before]
        if cached or record.complete:
            return cached, not record.complete
        chunk = max(limit * 2, 20)
        found = await self._store.groups(user_id, before, chunk)
        return found, len(found) == chunk

    async def _viewer(self, user_id: int) -> ViewerContext:
        relations = await self._states.relations(user_id)
        # Mutes hide no single post; muted-for-notifications accounts are the record's.
        return ViewerContext(user_id, relations.following, relations.blocked, frozenset())

    async def _visible(
        self,
        viewer: ViewerContext,
        record: NotificationRecord,
        groups: Sequence[Group],
        wanted: frozenset[NotificationType],
    ) -> list[tuple[Group, Post | None]]:
        state = record.state
        hidden = state.muted | viewer.blocked
        shown = [
            group
            for candidate in groups
            if (group := readable(candidate, wanted, state.types_off, hidden)) is not None
        ]
        posts = await self._views.posts([g.post_id for g in shown if g.post_id])
        kept: list[tuple[Group, Post | None]] = []
        for group in shown:
            post = posts.get(group.post_id)
            if post is not None and may_see(viewer, post) is not None:
                post = None
            if post is None and group.post_id and group.type is not NotificationType.MODERATION:
                continue  # about a post gone or no longer visible to the recipient
            kept.append((group, post))
        return kept

    async def _hydrate(
        self, user_id: int, page: list[tuple[Group, Post | None]]
    ) -> list[NotificationItem]:
        posts = [post for _, post in page if post is not None]
        items = {item.post.id: item for item in await self._hydrator.hydrate(user_id, posts, {})}
        accounts = {account for group, _ in page for account in group.accounts}
        profiles = await self._views.profiles(sorted(accounts))
        return [
            NotificationItem(
                group,
                [
                    profiles[a]
                    for a in group.accounts
                    if a in profiles and not profiles[a].suspended
                ],
                items.get(post.shown.id) if post is not None else None,
            )
            for group, post in page
        ]
