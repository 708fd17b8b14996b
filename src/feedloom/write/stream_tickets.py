"""Stream tickets: how a browser EventSource, which cannot send an Authorization
header, authenticates GET /v1/streams/home.

A signed ticket (tickets.py) for one user, short lived: it is checked when a stream
connects; the stream itself may outlive it.
"""

from __future__ import annotations

from datetime import timedelta

from feedloom.ports import Clock
from feedloom.write.tickets import SignedTickets

TICKET_TTL = timedelta(minutes=5)


class StreamTickets(SignedTickets):
    def __init__(self, secret_key: str, clock: Clock, ttl: timedelta = TICKET_TTL) -> None:
        super().__init__(
            secret_key,
            "stream-ticket",
            clock,
            ttl,
            noun="this stream ticket",
            renew="POST /v1/streams/tickets again",
        )
