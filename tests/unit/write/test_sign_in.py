"""The sign-in limits' rules (write/sign_in.py) with plain fakes: the per-account limit
spares a known client, for as long as it stays known, and only for its own account."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from feedloom.domain.errors import RateLimited
from feedloom.write.sign_in import SignInLimits
from feedloom.write.tickets import SignedTickets
from tests.unit.fakes import NOW, FakeRateLimiter, throttle

KNOWN_FOR = timedelta(days=90)


class FakeKnownClients:
    def __init__(self) -> None:
        self.seen: dict[tuple[int, str], datetime] = {}

    async def remember(
        self, user_id: int, client: str, now: datetime, forget_before: datetime
    ) -> None:
        self.seen[user_id, client] = now

    async def knows(self, user_id: int, client: str, since: datetime) -> bool:
        return self.seen.get((user_id, client), since - KNOWN_FOR) >= since


def limits(now: list[datetime]) -> SignInLimits:
    clock = lambda: now[0]  # noqa: E731
    devices = SignedTickets("secret", "sign-in-device", clock, KNOWN_FOR, "cookie", "again")
    rules = throttle(FakeRateLimiter(), sign_in_per_account=1)
    return SignInLimits(rules, FakeKnownClients(), devices, clock, KNOWN_FOR)


async def test_a_full_account_limit_spares_the_address_that_signed_in_for_a_while() -> None:
    now = [NOW]
    gate = limits(now)
    await gate.signed_in(7, "192.0.2.1")
    await gate.charge_account("kim", 7, "198.51.100.1", None)  # fills it
    with pytest.raises(RateLimited):
        await gate.charge_account("KIM", 7, "198.51.100.2", None)
    await gate.charge_account("kim", 7, "192.0.2.1", None)
    with pytest.raises(RateLimited):
        await gate.charge_account("kim", 8, "192.0.2.1", None)  # known to 7, not to 8
    now[0] = NOW + KNOWN_FOR + timedelta(seconds=1)
    with pytest.raises(RateLimited):
        await gate.charge_account("kim", 7, "192.0.2.1", None)


async def test_a_full_account_limit_spares_its_own_device_cookie_until_it_expires() -> None:
    now = [NOW]
    gate = limits(now)
    cookie = (await gate.signed_in(7, "192.0.2.1")).value
    await gate.charge_account("kim", 7, "198.51.100.1", None)
    await gate.charge_account("kim", 7, "198.51.100.2", cookie)
    for user_id, device in ((8, cookie), (7, cookie + "0"), (None, cookie)):
        with pytest.raises(RateLimited):
            await gate.charge_account("kim", user_id, "198.51.100.2", device)
    now[0] = NOW + KNOWN_FOR + timedelta(seconds=1)
    with pytest.raises(RateLimited):
        await gate.charge_account("kim", 7, "198.51.100.2", cookie)
