"""SqlOAuth: OAuth client apps, authorization codes and app-only tokens (migration 0019)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import utc
from feedloom.adapters.sql.schema import oauth_app_tokens, oauth_apps, oauth_codes
from feedloom.ports.oauth import AuthorizationCode, OAuthApp


class SqlOAuth:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def create_app(self, app: OAuthApp) -> None:
        row = {
            "id": app.id,
            "client_id": app.client_id,
            "secret_hash": app.secret_hash,
            "name": app.name,
            "website": app.website,
            "redirect_uris": "\n".join(app.redirect_uris),
            "scopes": " ".join(app.scopes),
            "created_at": app.created_at,
        }
        async with self._engine.begin() as conn:
            await conn.execute(oauth_apps.insert().values(row))

    async def app(self, client_id: str) -> OAuthApp | None:
        return await self._one(oauth_apps.c.client_id == client_id)

    async def app_by_id(self, app_id: int) -> OAuthApp | None:
        return await self._one(oauth_apps.c.id == app_id)

    async def _one(self, where: Any) -> OAuthApp | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(oauth_apps).where(where))).first()
        return _app(row) if row is not None else None

    async def save_code(self, code: AuthorizationCode) -> None:
        row = {
            "code_hash": code.code_hash,
            "app_id": code.app_id,
            "user_id": code.user_id,
            "redirect_uri": code.redirect_uri,
            "scopes": code.scopes,
            "challenge": code.challenge,
            "challenge_method": code.challenge_method,
            "expires_at": code.expires_at,
        }
        async with self._engine.begin() as conn:
            await conn.execute(oauth_codes.insert().values(row))

    async def take_code(self, code_hash: str, now: datetime) -> AuthorizationCode | None:
        query = (
            delete(oauth_codes).where(oauth_codes.c.code_hash == code_hash).returning(oauth_codes)
        )
        async with self._engine.begin() as conn:
            row = (await conn.execute(query)).first()
            # Expired codes of anyone go with it: nothing else sweeps them.
            await conn.execute(delete(oauth_codes).where(oauth_codes.c.expires_at < now))
        if row is None or (utc(row.expires_at) or row.expires_at) < now:
            return None
        return AuthorizationCode(
            row.code_hash,
            row.app_id,
            row.user_id,
            row.redirect_uri,
            row.scopes,
            row.challenge,
            row.challenge_method,
            utc(row.expires_at) or row.expires_at,
        )

    async def create_app_token(
        self, token_hash: str, app_id: int, scopes: str, now: datetime
    ) -> None:
        row = {"token_hash": token_hash, "app_id": app_id, "scopes": scopes, "created_at": now}
        async with self._engine.begin() as conn:
            await conn.execute(oauth_app_tokens.insert().values(row))

    async def app_token(self, token_hash: str) -> tuple[OAuthApp, str] | None:
        query = (
            select(oauth_apps, oauth_app_tokens.c.scopes.label("token_scopes"))
            .select_from(
                oauth_app_tokens.join(oauth_apps, oauth_apps.c.id == oauth_app_tokens.c.app_id)
            )
            .where(oauth_app_tokens.c.token_hash == token_hash)
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return (_app(row), row.token_scopes) if row is not None else None

    async def revoke_app_token(self, token_hash: str) -> bool:
        query = delete(oauth_app_tokens).where(oauth_app_tokens.c.token_hash == token_hash)
        async with self._engine.begin() as conn:
            return bool((await conn.execute(query)).rowcount)


def _app(row: Any) -> OAuthApp:
    return OAuthApp(
        row.id,
        row.client_id,
        row.secret_hash,
        row.name,
        row.website,
        tuple(row.redirect_uris.split("\n")),
        tuple(row.scopes.split()),
        utc(row.created_at) or row.created_at,
    )
