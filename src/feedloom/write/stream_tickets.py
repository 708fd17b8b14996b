"""Stream tickets: how a browser EventSource, which cannot send an Authorization
header, authenticates GET /v1/streams/home.

A ticket is `<user_id>.<expires>.<hmac>`, signed with the service's secret key: short
lived, checked by any process without a lookup, and worth nothing but opening a stream
for that user (it is not a bearer token). It is checked when a stream connects; the
stream itself may outlive it.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from feedloom.domain.errors import Unauthorized
from feedloom.ports import Clock

TICKET_TTL = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Ticket:
    value: str
    expires_at: datetime


class StreamTickets:
    def __init__(self, secret_key: str, clock: Clock, ttl: timedelta = TICKET_TTL) -> None:
        self._key = hashlib.sha256(b"stream-ticket:" + secret_key.encode()).digest()
        self._clock, self._ttl = clock, ttl

    def issue(self, user_id: int) -> Ticket:
        expires_at = self._clock() + self._ttl
        payload = f"{user_id}.{int(expires_at.timestamp())}"
        return Ticket(f"{payload}.{self._sign(payload)}", expires_at)

    def redeem(self, ticket: str) -> int:
        user, _, rest = ticket.partition(".")
        expires, _, signature = rest.partition(".")
        if not (user.isdigit() and expires.isdigit() and signature):
            raise Unauthorized("this stream ticket is malformed")
        # Bytes: compare_digest refuses str with non-ASCII characters (a 500, not a 401).
        expected = self._sign(f"{user}.{expires}").encode()
        if not hmac.compare_digest(expected, signature.encode()):
            raise Unauthorized("this stream ticket is not valid")
        if int(expires) < self._clock().timestamp():
            raise Unauthorized("this stream ticket expired: POST /v1/streams/tickets again")
        return int(user)

    def _sign(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode(), hashlib.sha256).hexdigest()[:32]
