"""Stream tickets: signed, short-lived, tied to one user."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from feedloom.domain.errors import Unauthorized
from feedloom.write.stream_tickets import StreamTickets

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_ticket_names_its_user_until_it_expires() -> None:
    now = [NOW]
    tickets = StreamTickets("secret", lambda: now[0], timedelta(minutes=5))
    ticket = tickets.issue(42)
    assert ticket.expires_at == NOW + timedelta(minutes=5)
    assert tickets.redeem(ticket.value) == 42
    now[0] = NOW + timedelta(minutes=6)
    with pytest.raises(Unauthorized, match="expired"):
        tickets.redeem(ticket.value)


def test_a_changed_or_foreign_ticket_is_refused() -> None:
    ticket = StreamTickets("secret", lambda: NOW).issue(42).value
    user, expires, signature = ticket.split(".")
    forgeries = (
        f"43.{expires}.{signature}",
        f"{user}.{int(expires) + 60}.{signature}",
        f"{user}.{expires}.\u00e9{signature}",  # non-ASCII: refused, never a TypeError
        "x",
    )
    for forged in forgeries:
        with pytest.raises(Unauthorized):
            StreamTickets("secret", lambda: NOW).redeem(forged)
    with pytest.raises(Unauthorized):
        StreamTickets("another secret", lambda: NOW).redeem(ticket)
