"""Passwords: hashing in a bounded pool that refuses, never queues without end; the
dummy hash for unknown accounts never matches."""

from __future__ import annotations

import asyncio
import threading
from typing import Literal

import pytest
from argon2 import PasswordHasher

from feedloom.domain.errors import Unavailable
from feedloom.write.passwords import Passwords


class SlowHasher(PasswordHasher):
    """Verifies only once the test lets it: a hash that takes as long as we like."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=64)
        self.release = threading.Event()

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.release.wait(timeout=10)
        return super().verify(hash, password)


async def test_past_the_pool_and_its_queue_a_hash_is_refused_at_once() -> None:
    hasher = SlowHasher()
    passwords = Passwords(hasher, workers=1, queue=1)
    try:
        stored = hasher.hash("right password")
        running = asyncio.create_task(passwords.verify(stored, "right password"))
        waiting = asyncio.create_task(passwords.verify(stored, "wrong password"))
        await asyncio.sleep(0.05)  # both have taken their slots
        with pytest.raises(Unavailable):
            await passwords.verify(stored, "right password")
        hasher.release.set()
        assert await running is True
        assert await waiting is False
    finally:
        hasher.release.set()
        passwords.close()


async def test_an_unknown_account_is_checked_against_the_dummy_and_never_matches() -> None:
    passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=64), workers=1, queue=4)
    try:
        assert await passwords.verify(None, "anything at all") is False
        assert await passwords.verify(await passwords.hash("pw"), "pw") is True
    finally:
        passwords.close()
