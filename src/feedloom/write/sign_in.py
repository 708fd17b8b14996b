"""The sign-in limits, arranged so that an attacker cannot use them to lock the owner
out (docs/OPERATIONS.md, "Sign-in limits").

Every attempt is charged, before any password is hashed, to the client's address
(`sign_in_per_address`: stuffing credentials across accounts from one place) and to
the (account, address) pair (`sign_in_per_account_address`: guessing one account from
one place). The per-account limit (`sign_in_per_account`: guessing one account from
many places) is charged too, but when it is full a client that signed in to that
account before is let through: one that sends the device cookie a sign-in set (a
browser; OWASP's "device cookies"), or one at an address that signed in to it within
`known_for` (an API client that keeps no cookies). A flood of wrong passwords from
anywhere else then shuts out new devices for a while, never the owner's known ones;
the owner's own address and device keep their own limits.

Known addresses are stored as digests (ports.KnownClients), so the table is no plain
log of where people sign in from.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from feedloom.domain.errors import RateLimited
from feedloom.ports import Clock, KnownClients
from feedloom.write.throttle import Throttle
from feedloom.write.tickets import SignedTickets, Ticket

NO_ACCOUNT = 0  # no user has ID 0: what an unknown username is looked up as


class SignInLimits:
    def __init__(
        self,
        throttle: Throttle,
        clients: KnownClients,
        devices: SignedTickets,
        clock: Clock,
        known_for: timedelta,
    ) -> None:
        self._throttle, self._clients, self._devices = throttle, clients, devices
        self._clock, self.known_for = clock, known_for

    async def charge_client(self, username: str, address: str) -> None:
        """The limits every attempt pays, before the account is even looked up."""
        await self._throttle.key("sign_in_per_address", address)
        await self._throttle.key("sign_in_per_account_address", f"{username.lower()} {address}")

    async def charge_account(
        self, username: str, user_id: int | None, address: str, device: str | None
    ) -> None:
        """The per-account limit, unless the client signed in to the account before."""
        try:
            await self._throttle.key("sign_in_per_account", username.lower())
        except RateLimited:
            if not await self._known(user_id, address, device):
                raise

    async def signed_in(self, user_id: int, address: str) -> Ticket:
        """Remember the address; the device cookie's value, for the client to keep."""
        now = self._clock()
        await self._clients.remember(user_id, client_key(address), now, now - self.known_for)
        return self._devices.issue(user_id)

    async def _known(self, user_id: int | None, address: str, device: str | None) -> bool:
        if user_id is not None and self._devices.holder(device) == user_id:
            return True
        # Asked for an unknown username too, so a refusal costs the same either way and
        # its timing does not tell which usernames exist.
        since = self._clock() - self.known_for
        known = await self._clients.knows(user_id or NO_ACCOUNT, client_key(address), since)
        return known and user_id is not None


def client_key(address: str) -> str:
    return hashlib.sha256(f"sign-in-client:{address}".encode()).hexdigest()
