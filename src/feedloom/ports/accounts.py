"""Durable-store ports for accounts: sign-up and sign-in, tokens, activity, profiles,
preferences, the pushed/pulled flag and the operators' account administration.

Like every durable port (ports/durable.py), one small role each; one SQL adapter class
plays several.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from feedloom.domain.model import FeedOrder, Role, UserProfile
from feedloom.ports.records import AccountRecord, Credentials, ProfileChanges

# -- accounts --------------------------------------------------------------------


class AccountStore(Protocol):
    async def create_user(
        self, user_id: int, username: str, display_name: str, password_hash: str, now: datetime
    ) -> None: ...
    async def credentials(self, username: str) -> Credentials | None:
        """None for an unknown, suspended or deleted account: none of them may sign in."""
        ...


class AccountAdmin(Protocol):
    """An operator's changes to an account (`feedloom accounts`)."""

    async def account(self, username: str) -> AccountRecord | None: ...
    async def user_ids(self, after: int, limit: int) -> list[int]:
        """IDs of accounts not deleted, ascending, above `after`: keyset pages."""
        ...

    async def modify(
        self, user_id: int, display_name: str | None, password_hash: str | None
    ) -> None: ...
    async def set_role(self, user_id: int, role: Role | None) -> None: ...
    async def set_suspended(self, user_id: int, at: datetime | None) -> None: ...
    async def set_deleted(self, user_id: int, at: datetime) -> None: ...
    async def revoke_tokens(self, user_id: int) -> list[str]:
        """Delete every token of the account; returns their digests (to uncache)."""
        ...


class TokenStore(Protocol):
    """Bearer tokens, stored as digests only."""

    async def create_token(self, token_hash: str, user_id: int, now: datetime) -> None: ...
    async def user_for_token(self, token_hash: str) -> int | None: ...
    async def revoke_token(self, token_hash: str) -> None: ...


class ActivityLog(Protocol):
    async def mark_active(self, user_id: int, now: datetime) -> None: ...


class ProfileStore(Protocol):
    async def profiles(self, user_ids: Sequence[int]) -> dict[int, UserProfile]: ...


class ProfileEditor(Protocol):
    async def update_profile(self, user_id: int, changes: ProfileChanges) -> None: ...


class FanoutModes(Protocol):
    async def set_pulled(self, user_id: int, pulled: bool, now: datetime) -> None:
        """Pushed again (`pulled` False) also queues the back-fill of recent posts."""
        ...


class PreferenceStore(Protocol):
    async def feed_order(self, user_id: int) -> FeedOrder | None: ...
    async def set_feed_order(self, user_id: int, order: FeedOrder | None) -> None: ...
