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
from feedloom.ports.records import (
    AccountRecord,
    Credentials,
    Erasure,
    ProfileChanges,
    SessionRecord,
)

# -- accounts --------------------------------------------------------------------


class AccountStore(Protocol):
    async def create_user(
        self, user_id: int, username: str, display_name: str, password_hash: str, now: datetime
    ) -> None: ...
    async def credentials(self, username: str) -> Credentials | None:
        """None for an unknown, suspended or deleted account: none of them may sign in."""
        ...

    async def credentials_of(self, user_id: int) -> Credentials | None:
        """The same by ID (a signed-in user changing or confirming their password)."""
        ...

    async def set_password_hash(self, user_id: int, password_hash: str) -> None: ...
    async def release_username(self, username: str, deleted_before: datetime) -> bool:
        """Rename an account deleted before the cutoff that holds this username (any
        case), so a new account may take it; whether one was released."""
        ...


class AccountEraser(Protocol):
    async def media_files(self, user_id: int) -> list[str]:
        """Object names of the account's media: originals and sizes."""
        ...

    async def erase_account(self, user_id: int, now: datetime) -> Erasure:
        """In ONE transaction: mark the account deleted and blank its profile and
        password; tombstone its posts; delete its follows (both ways, counts moved),
        blocks, mutes, likes, comments (and those on its posts), media rows, keys,
        affinities, tokens and known sign-in clients."""
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
    """Bearer tokens (sessions), stored as digests only."""

    async def create_token(
        self,
        token_hash: str,
        user_id: int,
        now: datetime,
        app_id: int | None = None,
        scopes: str | None = None,
    ) -> None:
        """A session; one opened through OAuth names its app and granted scopes."""
        ...

    async def session_for_token(self, token_hash: str) -> SessionRecord | None: ...
    async def touch_token(self, token_hash: str, now: datetime) -> None:
        """Record a use: the session's idle expiry starts again from `now`."""
        ...

    async def revoke_token(self, token_hash: str) -> None: ...
    async def sessions_of(self, user_id: int) -> list[SessionRecord]:
        """Every token of the account, newest first."""
        ...

    async def revoke_other_tokens(self, user_id: int, keep_hash: str) -> list[str]:
        """Delete every token of the account but one; returns the deleted digests."""
        ...

    async def revoke_session(self, user_id: int, session_id: str) -> str | None:
        """Delete the account's token with this session ID; its digest, None if none."""
        ...


class KnownClients(Protocol):
    """Where each account signed in from: (account, client key) pairs that succeeded,
    with the last time (write/sign_in.py; the key is a digest of the address)."""

    async def remember(
        self, user_id: int, client: str, now: datetime, forget_before: datetime
    ) -> None:
        """Record a sign-in of `client` at `now`; the account's pairs last seen before
        `forget_before` go."""
        ...

    async def knows(self, user_id: int, client: str, since: datetime) -> bool:
        """Whether `client` signed in to the account at `since` or later."""
        ...


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
