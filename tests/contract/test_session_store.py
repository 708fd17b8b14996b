"""Contract: ranked feed sessions (FeedSessionStore), on every adapter."""

from __future__ import annotations

import asyncio

from tests.contract.conftest import Caches


async def test_a_session_keeps_its_ranked_order(caches: Caches) -> None:
    sessions = caches.sessions()
    await sessions.save("s1", [30, 10, 2**63 - 1, 20], ttl_s=60)
    assert await sessions.load("s1") == [30, 10, 2**63 - 1, 20]
    assert await sessions.load("unknown") is None


async def test_an_empty_session_is_still_a_session(caches: Caches) -> None:
    sessions = caches.sessions()
    await sessions.save("s1", [], ttl_s=60)
    assert await sessions.load("s1") == []


async def test_a_session_ends_after_its_ttl(caches: Caches) -> None:
    sessions = caches.sessions()
    await sessions.save("s1", [1], ttl_s=1)
    await asyncio.sleep(1.2)  # both adapters keep sessions on real time
    assert await sessions.load("s1") is None
