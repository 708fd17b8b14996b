"""Accounts and sessions: register, log in, authenticate a bearer token, note activity.

Passwords are hashed with argon2 (off the event loop: it is deliberately slow).
Tokens are random and opaque; only their SHA-256 is stored, so a leaked table holds
no usable token, and deleting the row revokes it.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from feedloom.backend import Backend
from feedloom.domain.errors import InvalidInput, Unauthorized

USERNAME = re.compile(r"^[A-Za-z0-9_]{3,32}$")
ACTIVITY_WRITE_INTERVAL_S = 3600.0


def password_hasher(backend: Backend) -> PasswordHasher:
    settings = backend.settings
    return PasswordHasher(
        time_cost=settings.password_hash_time_cost, memory_cost=settings.password_hash_memory_kib
    )


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def register_account(
    backend: Backend,
    username: str,
    password: str,
    display_name: str,
) -> int:
    if not USERNAME.match(username):
        raise InvalidInput("username must be 3-32 letters, digits or underscores")
    if not 8 <= len(password) <= 256:
        raise InvalidInput("password must be 8-256 characters")
    hashed = await asyncio.to_thread(password_hasher(backend).hash, password)
    user_id = backend.ids.next_id()
    await backend.accounts.create_user(
        user_id, username, display_name or username, hashed, backend.clock()
    )
    return user_id


async def open_session(backend: Backend, username: str, password: str) -> str:
    credentials = await backend.accounts.credentials(username)
    if credentials is None:
        raise Unauthorized("unknown username or wrong password")
    try:
        await asyncio.to_thread(
            password_hasher(backend).verify, credentials.password_hash, password
        )
    except (VerificationError, InvalidHashError) as error:
        raise Unauthorized("unknown username or wrong password") from error
    token = secrets.token_urlsafe(32)
    await backend.accounts.create_token(token_digest(token), credentials.user_id, backend.clock())
    return token


async def close_session(backend: Backend, token: str) -> None:
    await backend.accounts.revoke_token(token_digest(token))


async def authenticate(backend: Backend, token: str) -> int:
    user_id = await backend.accounts.user_for_token(token_digest(token))
    if user_id is None:
        raise Unauthorized("the bearer token is unknown or was revoked")
    await record_activity(backend, user_id)
    return user_id


async def record_activity(backend: Backend, user_id: int) -> None:
    """Any authenticated request makes a user active: it keeps their timeline from
    expiring. Written at most hourly per user per process, so a busy reader does not
    turn every request into a write."""
    now = time.monotonic()
    if (
        now - backend.activity_seen.get(user_id, -ACTIVITY_WRITE_INTERVAL_S)
        < ACTIVITY_WRITE_INTERVAL_S
    ):
        return
    backend.activity_seen[user_id] = now
    if len(backend.activity_seen) > 1_000_000:
        backend.activity_seen.clear()
    await backend.accounts.mark_active(user_id, backend.clock())
    await backend.timelines.touch(user_id)
