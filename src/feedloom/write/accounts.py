"""Accounts: sign up, sign in and out, change the password, confirm it.

Passwords are hashed with argon2 in a bounded pool (passwords.py). Sign-in is
throttled per client address, per (account, address) and per account for clients that
never signed in to it (sign_in.py), sign-up per address (throttle.py); an unknown
username costs the same hash as a wrong password.
Tokens are random and opaque; only their SHA-256 is stored, so a leaked table holds
no usable token, and deleting the row revokes it (sessions.py reads them back).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from feedloom.domain.errors import Conflict, Forbidden, InvalidInput, Unauthorized
from feedloom.domain.ids import IdGenerator
from feedloom.ports import AccountStore, Clock, RecordCache, TokenStore
from feedloom.write.passwords import Passwords
from feedloom.write.sign_in import SignInLimits
from feedloom.write.throttle import Throttle
from feedloom.write.tickets import Ticket

USERNAME = re.compile(r"^[A-Za-z0-9_]{3,32}$")
RELEASED = re.compile(r"^deleted_\d+$", re.IGNORECASE)  # what a released name becomes


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class OpenedSession:
    token: str
    user_id: int
    device: Ticket  # the device cookie: this client signed in to this account


class AccountService:
    """Sign-up, sign-in and sign-out, the password."""

    def __init__(
        self,
        accounts: AccountStore,
        tokens: TokenStore,
        token_cache: RecordCache,
        passwords: Passwords,
        throttle: Throttle,
        sign_in_limits: SignInLimits,
        ids: IdGenerator,
        clock: Clock,
        username_reserved: timedelta,
    ) -> None:
        self._accounts, self._tokens, self._token_cache = accounts, tokens, token_cache
        self._passwords, self._throttle = passwords, throttle
        self._limits = sign_in_limits
        self._ids, self._clock = ids, clock
        self.username_reserved = username_reserved  # public: tests shorten it

    async def register(
        self, username: str, password: str, display_name: str, address: str | None = None
    ) -> int:
        """Sign up; `address` (the client's) is charged, None for an operator's."""
        if not USERNAME.match(username):
            raise InvalidInput("username must be 3-32 letters, digits or underscores")
        if RELEASED.match(username):
            # Taken, in effect: a deleted account's released name (adapters/sql/erasure.py).
            raise Conflict("usernames like deleted_123 are reserved")
        _check_password_rules(password)
        if address is not None:
            await self._throttle.key("sign_up_per_address", address)
        hashed = await self._passwords.hash(password)
        user_id, now = self._ids.next_id(), self._clock()
        create = partial(
            self._accounts.create_user, user_id, username, display_name or username, hashed, now
        )
        try:
            await create()
        except Conflict:
            # The name may belong to an account deleted longer ago than it is reserved.
            if not await self._accounts.release_username(username, now - self.username_reserved):
                raise
            await create()
        return user_id

    async def open_session(
        self, username: str, password: str, address: str, device: str | None = None
    ) -> OpenedSession:
        """Sign in from `address`, with the device cookie a sign-in set (if the client
        kept one): a new session."""
        user_id = await self.check_sign_in(username, password, address, device)
        token = secrets.token_urlsafe(32)
        await self._tokens.create_token(token_digest(token), user_id, self._clock())
        device_ticket = await self._limits.signed_in(user_id, address)
        return OpenedSession(token, user_id, device_ticket)

    async def check_sign_in(
        self, username: str, password: str, address: str, device: str | None = None
    ) -> int:
        """The account the username and password sign in to, under the sign-in limits:
        every limit is charged before any hash is computed, so a flood costs lookups,
        not argon2 hashes (and an unknown username costs a hash like a wrong password).
        Also what the OAuth sign-in form checks (write/oauth.py)."""
        await self._limits.charge_client(username, address)
        credentials = await self._accounts.credentials(username)
        user_id = credentials.user_id if credentials is not None else None
        await self._limits.charge_account(username, user_id, address, device)
        known_hash = credentials.password_hash if credentials is not None else None
        if not await self._passwords.verify(known_hash, password) or credentials is None:
            raise Unauthorized("unknown username or wrong password")
        return credentials.user_id

    async def remember_client(self, user_id: int, address: str) -> None:
        """A sign-in succeeded from `address`: it is a known client of the account."""
        await self._limits.signed_in(user_id, address)

    async def close_session(self, token: str) -> None:
        digest = token_digest(token)
        await self._tokens.revoke_token(digest)
        await self._token_cache.invalidate([digest])  # the next request is refused

    async def change_password(self, user_id: int, current: str, new: str, token: str) -> None:
        """PUT /v1/me/password: every other session of the account is signed out."""
        await self.confirm_password(user_id, current)
        _check_password_rules(new)
        await self._accounts.set_password_hash(user_id, await self._passwords.hash(new))
        revoked = await self._tokens.revoke_other_tokens(user_id, token_digest(token))
        if revoked:
            await self._token_cache.invalidate(revoked)

    async def confirm_password(self, user_id: int, password: str) -> None:
        """A signed-in user proves it is them (changing the password, deleting the
        account): throttled like a sign-in to the account, so a stolen token cannot
        guess the password either."""
        await self._throttle.key("sign_in_per_account", f"#{user_id}")
        credentials = await self._accounts.credentials_of(user_id)
        known_hash = credentials.password_hash if credentials is not None else None
        if not await self._passwords.verify(known_hash, password):
            raise Forbidden("the password is wrong")


def _check_password_rules(password: str) -> None:
    if not 8 <= len(password) <= 256:
        raise InvalidInput("password must be 8-256 characters")
