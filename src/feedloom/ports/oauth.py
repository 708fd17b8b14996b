"""Durable-store port for OAuth 2 (the Mastodon-compatible API): client apps, single-use
authorization codes and app-only tokens. Secrets, codes and tokens are kept as digests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class OAuthApp:
    id: int
    client_id: str
    secret_hash: str
    name: str
    website: str | None
    redirect_uris: tuple[str, ...]
    scopes: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class AuthorizationCode:
    code_hash: str
    app_id: int
    user_id: int
    redirect_uri: str
    scopes: str
    challenge: str | None
    challenge_method: str | None
    expires_at: datetime


class OAuthStore(Protocol):
    async def create_app(self, app: OAuthApp) -> None: ...
    async def app(self, client_id: str) -> OAuthApp | None: ...
    async def app_by_id(self, app_id: int) -> OAuthApp | None: ...
    async def save_code(self, code: AuthorizationCode) -> None: ...
    async def take_code(self, code_hash: str, now: datetime) -> AuthorizationCode | None:
        """Delete the code and return it if it had not expired: a code is used once,
        even by two requests at the same moment."""
        ...

    async def create_app_token(
        self, token_hash: str, app_id: int, scopes: str, now: datetime
    ) -> None: ...
    async def app_token(self, token_hash: str) -> tuple[OAuthApp, str] | None:
        """The app an app-only token acts for, and its scopes."""
        ...

    async def revoke_app_token(self, token_hash: str) -> bool: ...
