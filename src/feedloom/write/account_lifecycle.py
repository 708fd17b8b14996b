"""An operator's changes to an account: modify, role, suspend, reinstate, delete.

Suspension takes effect at once, on every process: the account's tokens are deleted
and uncached (the next request is refused), signing in is refused, and the cached
profile and post views are forgotten, so the next read loads them with the
suspension flag and the read-time filter (domain/visibility.py) drops the account's
posts from every feed and page, and its profile from every list of people. Its comments
are left out by the store (adapters/sql/engagement.py), so the comment counts of the
posts it commented on are recounted. Timelines are not touched: like a deleted post, a
suspended author's entries are filtered on read, and all of it comes back when
reinstated.

Deletion erases the account as DELETE /v1/me does (erase_account.py): its posts,
follows, likes, comments and media go, and it cannot be undone.
"""

from __future__ import annotations

from feedloom.domain.errors import Conflict, InvalidInput, NotFound
from feedloom.domain.model import Role
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import DisplayedCounts
from feedloom.ports import AccountAdmin, AccountRecord, Clock, Engagement, PostArchive, RecordCache
from feedloom.write.erase_account import EraseAccount
from feedloom.write.passwords import Passwords

FORGET_BATCH = 1_000
RECOUNT_BATCH = 1_000


class AccountLifecycle:
    def __init__(
        self,
        admin: AccountAdmin,
        archive: PostArchive,
        token_cache: RecordCache,
        views: Views,
        passwords: Passwords,
        erase: EraseAccount,
        engagement: Engagement,
        counts: DisplayedCounts,
        clock: Clock,
    ) -> None:
        self._admin, self._archive, self._token_cache = admin, archive, token_cache
        self._views, self._passwords, self._clock = views, passwords, clock
        self._erase, self._engagement, self._counts = erase, engagement, counts

    async def account(self, username: str) -> AccountRecord:
        record = await self._admin.account(username)
        if record is None:
            raise NotFound(f"no account named {username!r}")
        return record

    async def modify(
        self, username: str, display_name: str | None, password: str | None
    ) -> AccountRecord:
        """A new display name, a new password (which signs the account out everywhere)."""
        record = await self._live(username)
        if display_name is not None and not 1 <= len(display_name) <= 64:
            raise InvalidInput("display name must be 1-64 characters")
        if password is not None and not 8 <= len(password) <= 256:
            raise InvalidInput("password must be 8-256 characters")
        hashed = None if password is None else await self._passwords.hash(password)
        await self._admin.modify(record.user_id, display_name, hashed)
        if hashed is not None:
            await self._sign_out(record.user_id)
        await self._views.forget_profiles([record.user_id])
        return await self.account(username)

    async def set_role(self, username: str, role: Role | None) -> AccountRecord:
        record = await self._live(username)
        await self._admin.set_role(record.user_id, role)
        return await self.account(username)

    async def suspend(self, username: str) -> AccountRecord:
        record = await self._live(username)
        if record.suspended_at is None:
            await self._admin.set_suspended(record.user_id, self._clock())
        await self._hide(record.user_id)
        return await self.account(username)

    async def reinstate(self, username: str) -> AccountRecord:
        record = await self._live(username)
        await self._admin.set_suspended(record.user_id, None)
        await self._forget_views(record.user_id)
        await self._recount_commented(record.user_id)
        return await self.account(username)

    async def delete(self, username: str) -> AccountRecord:
        """Erase; run again, it finishes an erasure a cache outage interrupted."""
        record = await self.account(username)
        await self._erase(record.user_id)
        return await self.account(username)

    async def _live(self, username: str) -> AccountRecord:
        record = await self.account(username)
        if record.deleted_at is not None:
            raise Conflict(f"account {username!r} is deleted")
        return record

    async def _hide(self, user_id: int) -> None:
        # Store first, caches second: a view re-cached in between is already flagged.
        await self._sign_out(user_id)
        await self._forget_views(user_id)
        await self._recount_commented(user_id)

    async def _sign_out(self, user_id: int) -> None:
        digests = await self._admin.revoke_tokens(user_id)
        if digests:
            await self._token_cache.invalidate(digests)

    async def _forget_views(self, user_id: int) -> None:
        """The profile and every post view of the account, newest first, by keyset."""
        await self._views.forget_profiles([user_id])
        before: int | None = None
        while True:
            batch = (await self._archive.author_post_ids([user_id], before, FORGET_BATCH))[user_id]
            if batch:
                await self._views.forget_posts(batch)
            if len(batch) < FORGET_BATCH:
                return
            before = batch[-1]

    async def _recount_commented(self, user_id: int) -> None:
        """The displayed counts of every post the account commented on, from the truth,
        which counts the comments of live accounts only."""
        after = 0
        while batch := await self._engagement.commented_post_ids(user_id, after, RECOUNT_BATCH):
            await self._counts.recount(batch)
            after = batch[-1]
