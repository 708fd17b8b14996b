"""An app's user ID -> ours, through the token cache (the store on a miss): the one
lookup behind the app's server-side endpoints and the user tokens it signs."""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.apps import link_key
from feedloom.domain.errors import NotFound
from feedloom.ports import RecordCache
from feedloom.ports.apps import AppUsers


class AppLinks:
    def __init__(self, users: AppUsers, cache: RecordCache) -> None:
        self._users, self._cache = users, cache

    async def user_of(self, app_id: int, external_id: str) -> int:
        """The user, or 404 for an external ID the app never upserted (or erased)."""
        key = link_key(app_id, external_id)
        [(cached, generation)] = await self._cache.get_many([key])
        user_id = decode(cached) if cached is not None else None
        if user_id is None:
            user_id = await self.load(app_id, external_id, generation)
        if user_id is None:
            raise NotFound(f"the app has no user with external ID {external_id!r}")
        return user_id

    async def load(self, app_id: int, external_id: str, generation: int) -> int | None:
        found = await self._users.users_of(app_id, [external_id])
        user_id = found.get(external_id)
        if user_id is not None:
            await self._cache.put(link_key(app_id, external_id), encode(user_id), generation)
        return user_id

    async def users_of(self, app_id: int, external_ids: Sequence[str]) -> dict[str, int]:
        """Many at once, from the store (a batch's rows)."""
        return await self._users.users_of(app_id, external_ids)

    async def forget(self, app_id: int, external_ids: Sequence[str]) -> None:
        await self._cache.invalidate([link_key(app_id, ext) for ext in external_ids])


def encode(user_id: int) -> bytes:
    return f"l1 {user_id}".encode()


def decode(cached: bytes) -> int | None:
    version, _, user_id = cached.decode().partition(" ")
    return int(user_id) if version == "l1" and user_id.isdigit() else None
