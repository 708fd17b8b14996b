"""Signed tickets: `<user_id>.<expires>.<hmac>`, signed with the service's secret key.

Checked by any process without a lookup, worth nothing but what their purpose says
(opening a stream, vouching for a device that signed in before), and never a bearer
token. Each purpose signs with a key of its own, derived from the secret key and the
purpose's name, so a ticket of one kind is never taken for another.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from feedloom.domain.errors import Unauthorized
from feedloom.ports import Clock


@dataclass(frozen=True, slots=True)
class Ticket:
    value: str
    expires_at: datetime


class SignedTickets:
    """`purpose` names the key; `noun` and `renew` the refusals ("this stream ticket
    expired: POST /v1/streams/tickets again")."""

    def __init__(
        self, secret_key: str, purpose: str, clock: Clock, ttl: timedelta, noun: str, renew: str
    ) -> None:
        self._key = hashlib.sha256(f"{purpose}:{secret_key}".encode()).digest()
        self._clock, self.ttl = clock, ttl
        self._noun, self._renew = noun, renew

    def issue(self, user_id: int) -> Ticket:
        expires_at = self._clock() + self.ttl
        payload = f"{user_id}.{int(expires_at.timestamp())}"
        return Ticket(f"{payload}.{self._sign(payload)}", expires_at)

    def redeem(self, ticket: str) -> int:
        """The user the ticket was issued to; Unauthorized if it is malformed, forged,
        signed for another purpose or expired."""
        user, _, rest = ticket.partition(".")
        expires, _, signature = rest.partition(".")
        if not (user.isdigit() and expires.isdigit() and signature):
            raise Unauthorized(f"{self._noun} is malformed")
        # Bytes: compare_digest refuses str with non-ASCII characters (a 500, not a 401).
        expected = self._sign(f"{user}.{expires}").encode()
        if not hmac.compare_digest(expected, signature.encode()):
            raise Unauthorized(f"{self._noun} is not valid")
        if int(expires) < self._clock().timestamp():
            raise Unauthorized(f"{self._noun} expired: {self._renew}")
        return int(user)

    def holder(self, ticket: str | None) -> int | None:
        """The user of a valid ticket, None for no ticket or any refused one."""
        if ticket is None:
            return None
        try:
            return self.redeem(ticket)
        except Unauthorized:
            return None

    def _sign(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode(), hashlib.sha256).hexdigest()[:32]
