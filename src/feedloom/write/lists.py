"""Lists (POST|GET /v1/lists, GET|PATCH|DELETE /v1/lists/{id}, PUT|DELETE
/v1/lists/{id}/members/{user_id}): a user's own lists of accounts they follow.

Membership is read at every list feed read (read/feeds.py), so a change counts on the
next read; an exclusive list's members leave the owner's home feed, which reads them
from the owner's cached relations (lookups/reader_state.py): every change that moves
someone in or out of an exclusive list invalidates that record after its commit.
Adding or removing a member is idempotent ({changed}).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from feedloom.domain.custom_feeds import FeedList, Keyed
from feedloom.domain.errors import Conflict, NotFound
from feedloom.domain.feed_definitions import ReplyPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import Clock
from feedloom.ports.feeds import ListStore
from feedloom.write.idempotency import request_hash


@dataclass(frozen=True, slots=True)
class ListLimits:
    max_per_user: int
    max_members: int


@dataclass(frozen=True, slots=True)
class ListChanges:
    title: str | None = None
    replies: ReplyPolicy | None = None
    exclusive: bool | None = None


class Lists:
    def __init__(
        self,
        store: ListStore,
        states: ReaderStates,
        ids: IdGenerator,
        clock: Clock,
        limits: ListLimits,
    ) -> None:
        self._store, self._states, self._ids, self._clock = store, states, ids, clock
        self._limits = limits

    async def create(
        self, owner_id: int, title: str, replies: ReplyPolicy, exclusive: bool, key: str | None
    ) -> tuple[FeedList, bool]:
        """The list and whether it is new (False: a retry of a keyed create)."""
        new = FeedList(self._ids.next_id(), owner_id, title, replies, exclusive, self._clock())
        keyed = Keyed(key, request_hash("list", title, replies.value, exclusive))
        created = await self._store.create_list(new, keyed, self._limits.max_per_user)
        if created is None:
            raise Conflict(f"you have {self._limits.max_per_user} lists, the most allowed")
        return created

    async def of(self, owner_id: int) -> list[FeedList]:
        return await self._store.lists_of(owner_id)

    async def get(self, owner_id: int, list_id: int) -> FeedList:
        """The owner's list; anyone else's is not there (404)."""
        found = await self._store.list_by_id(list_id)
        if found is None or found.owner_id != owner_id:
            raise NotFound("no such list")
        return found

    async def change(self, owner_id: int, list_id: int, changes: ListChanges) -> FeedList:
        old = await self.get(owner_id, list_id)
        new = replace(
            old,
            title=changes.title if changes.title is not None else old.title,
            replies=changes.replies or old.replies,
            exclusive=changes.exclusive if changes.exclusive is not None else old.exclusive,
        )
        await self._store.update_list(new)
        if new.exclusive != old.exclusive:
            await self._states.changed([owner_id])
        return new

    async def delete(self, owner_id: int, list_id: int) -> None:
        found = await self.get(owner_id, list_id)
        await self._store.delete_list(list_id)
        if found.exclusive:
            await self._states.changed([owner_id])

    async def add(self, owner_id: int, list_id: int, member_id: int) -> bool:
        found = await self.get(owner_id, list_id)
        relations = await self._states.relations(owner_id)
        if member_id not in relations.following:
            raise Conflict("only accounts you follow can be added to a list")
        added = await self._store.add_member(
            list_id, member_id, self._clock(), self._limits.max_members
        )
        if added is None:
            raise Conflict(f"this list has {self._limits.max_members} members, the most allowed")
        if added and found.exclusive:
            await self._states.changed([owner_id])
        return added

    async def remove(self, owner_id: int, list_id: int, member_id: int) -> bool:
        found = await self.get(owner_id, list_id)
        removed = await self._store.remove_member(list_id, member_id)
        if removed and found.exclusive:
            await self._states.changed([owner_id])
        return removed

    async def members(self, owner_id: int, list_id: int) -> list[int]:
        await self.get(owner_id, list_id)
        return await self._store.members(list_id, self._limits.max_members)
