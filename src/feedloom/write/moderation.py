"""Reports from readers and the moderators' work on them (api/routes/moderation.py).

Readers report a post they can see (once each: a second report changes nothing).
Moderators (the `moderator` role, set with `feedloom accounts role`) page through the
queue of held and reported posts, release a held post (fan-out then runs as for a
new post), reject a post (a tombstone: gone from every feed on the next read),
suspend or reinstate an account (write/account_lifecycle.py, as operators do), flag
an account as suspicious (its engagement stops counting toward ranking), and list
accounts with sudden follower or like spikes (lookups/spikes.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.errors import Forbidden, InvalidInput, NotFound
from feedloom.domain.model import Role
from feedloom.domain.spikes import SpikeKind
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.spikes import Spike, Spikes
from feedloom.ports import AccountRecord, Clock, ModerationStore, PostStore, QueuedPost
from feedloom.write.account_lifecycle import AccountLifecycle

REASON_MAX_CHARS = 500


@dataclass(frozen=True, slots=True)
class QueuePage:
    posts: list[QueuedPost]
    next_cursor: str | None


class Reports:
    def __init__(self, store: ModerationStore, access: Access, clock: Clock) -> None:
        self._store, self._access, self._clock = store, access, clock

    async def report(self, reporter_id: int, post_id: int, reason: str) -> bool:
        """True if this is the reporter's first report of the post."""
        reason = reason.strip()
        if not 0 < len(reason) <= REASON_MAX_CHARS:
            raise InvalidInput(f"reason must be 1-{REASON_MAX_CHARS} characters")
        await self._access.visible_post(reporter_id, post_id)
        return await self._store.report(post_id, reporter_id, reason, self._clock())


class Moderation:
    def __init__(
        self,
        store: ModerationStore,
        posts: PostStore,
        views: Views,
        lifecycle: AccountLifecycle,
        spikes: Spikes,
        clock: Clock,
    ) -> None:
        self._store, self._posts, self._views = store, posts, views
        self._lifecycle, self._spikes, self._clock = lifecycle, spikes, clock

    async def require_moderator(self, user_id: int) -> None:
        if await self._store.role_of(user_id) is not Role.MODERATOR:
            raise Forbidden("moderators only")

    async def queue(self, moderator_id: int, cursor: str | None, limit: int) -> QueuePage:
        await self.require_moderator(moderator_id)
        after = keyset_before(cursor, "not a moderation queue cursor")
        found = await self._store.queue(after, limit + 1)
        page = found[:limit]
        more = len(found) > limit
        return QueuePage(page, encode_cursor(KeysetCursor(page[-1].post_id)) if more else None)

    async def release(self, moderator_id: int, post_id: int) -> bool:
        """Fan the held post out; False if it was not held (released already: a retry)."""
        await self.require_moderator(moderator_id)
        await self._existing(post_id)
        released = await self._store.release(post_id, self._clock())
        await self._views.forget_posts([post_id])
        return released

    async def reject(self, moderator_id: int, post_id: int) -> bool:
        """Delete the post (held or not); False if it was deleted already."""
        await self.require_moderator(moderator_id)
        await self._existing(post_id)
        deleted = await self._posts.tombstone(post_id, self._clock(), rejected=True)
        await self._views.forget_posts([post_id])
        return deleted

    async def suspend(self, moderator_id: int, username: str, suspended: bool) -> AccountRecord:
        await self.require_moderator(moderator_id)
        if suspended:
            return await self._lifecycle.suspend(username)
        return await self._lifecycle.reinstate(username)

    async def flag(self, moderator_id: int, username: str, flagged: bool) -> AccountRecord:
        await self.require_moderator(moderator_id)
        record = await self._lifecycle.account(username)
        await self._store.set_flagged(record.user_id, self._clock() if flagged else None)
        await self._views.forget_profiles([record.user_id])  # the flag travels with it
        return record

    async def spikes(self, moderator_id: int, kind: SpikeKind) -> list[tuple[Spike, str | None]]:
        """Accounts with a sudden follower or like spike this hour (domain/spikes.py),
        each with its username (None if the account is gone)."""
        await self.require_moderator(moderator_id)
        found = await self._spikes.find(kind)
        profiles = await self._views.profiles([spike.account_id for spike in found])
        return [
            (spike, profile.username if (profile := profiles.get(spike.account_id)) else None)
            for spike in found
        ]

    async def _existing(self, post_id: int) -> None:
        if post_id not in await self._posts.posts([post_id]):
            raise NotFound("no such post")
