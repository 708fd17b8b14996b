"""Ports of apps (docs/INTEGRATION.md): the apps and their keys, the links from their
user IDs to ours, and the bulk writes of their batches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from feedloom.domain.apps import App


@dataclass(frozen=True, slots=True)
class AppUserRow:
    """One user an app upserts: new, or the one its external ID already names."""

    external_id: str
    user_id: int  # used only if the user is new
    username: str
    display_name: str
    avatar: str | None = None


@dataclass(frozen=True, slots=True)
class UpsertedUser:
    user_id: int
    created: bool
    changed: bool  # created, or a field of an existing user changed
    error: str | None = None  # the row was not written: why (a username taken)


@dataclass(frozen=True, slots=True)
class FollowOp:
    follower_id: int
    followee_id: int
    follow: bool  # False: unfollow


@dataclass(frozen=True, slots=True)
class FollowsApplied:
    changed: list[bool]  # per op: a follow made or removed
    blocked: list[bool]  # per op: refused, a block between the two or a suspended account
    pulled: dict[int, tuple[int, bool]]  # each followee whose count moved -> (followers, pulled)


class AppStore(Protocol):
    async def create_app(self, app: App, key_hash: str) -> None: ...
    async def app(self, app_id: int) -> App | None: ...
    async def app_by_key(self, key_hash: str) -> App | None:
        """The app (revoked or not) whose current key hashes to this."""
        ...

    async def apps(self) -> list[App]: ...
    async def replace_key(self, app_id: int, key_hash: str, now: datetime) -> str | None:
        """Put a new key in place of the old one; returns the old key's hash (None: no
        such live app)."""
        ...

    async def revoke(self, app_id: int, now: datetime) -> str | None:
        """Revoke the app (its key and its users' tokens); returns its key's hash."""
        ...

    async def audit(self, app_id: int, action: str, now: datetime) -> None: ...
    async def audit_log(self, app_id: int, limit: int) -> list[tuple[str, datetime]]:
        """The app's latest audited actions, newest first."""
        ...


class AppUsers(Protocol):
    async def users_of(self, app_id: int, external_ids: Sequence[str]) -> dict[str, int]:
        """External ID -> user ID, for those the app has (live or not)."""
        ...

    async def upsert_users(
        self, app_id: int, rows: Sequence[AppUserRow], now: datetime
    ) -> list[UpsertedUser]:
        """Each row created or brought up to date, in one transaction; a row whose
        username another account holds is reported, not written."""
        ...

    async def apply_follows(self, ops: Sequence[FollowOp], now: datetime) -> FollowsApplied:
        """Follows made and removed in one transaction, counts kept in step; a pair
        with a block between them is refused."""
        ...
