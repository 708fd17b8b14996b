"""Sessions over fakes: a token expires when idle, each use renews it (at most every
`renew_every`), the cache carries the last use, and revocation reaches the cache."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.write.accounts import token_digest
from feedloom.write.sessions import Authenticator, SessionPolicy, Sessions
from tests.unit.fakes import (
    NOW,
    FakeActivityLog,
    FakeRecordCache,
    FakeTimelineStore,
    FakeTokenStore,
)

ALICE, BOB = 1, 2
POLICY = SessionPolicy(idle_expiry=timedelta(days=30))


@dataclass
class Clock:
    now: datetime = NOW

    def __call__(self) -> datetime:
        return self.now


@dataclass
class World:
    clock: Clock
    tokens: FakeTokenStore
    cache: FakeRecordCache
    auth: Authenticator
    sessions: Sessions


async def world() -> World:
    clock, tokens, cache = Clock(), FakeTokenStore(), FakeRecordCache()
    auth = Authenticator(tokens, cache, FakeActivityLog(), FakeTimelineStore(), clock, POLICY)
    for token, user, age in (("a1", ALICE, 2), ("a2", ALICE, 1), ("b1", BOB, 0)):
        await tokens.create_token(token_digest(token), user, NOW - timedelta(hours=age))
    return World(clock, tokens, cache, auth, Sessions(tokens, cache, clock, POLICY))


async def test_a_token_unused_for_the_idle_expiry_is_refused_and_deleted() -> None:
    w = await world()
    assert await w.auth.authenticate("a1") == ALICE
    w.clock.now += POLICY.idle_expiry
    with pytest.raises(Unauthorized, match="expired"):
        await w.auth.authenticate("a1")
    assert token_digest("a1") not in w.tokens.sessions


async def test_each_use_renews_the_expiry_writing_at_most_every_renewal_interval() -> None:
    w = await world()
    digest = token_digest("a1")
    for _ in range(40):  # 40 days of daily use: never expires
        w.clock.now += timedelta(days=1)
        assert await w.auth.authenticate("a1") == ALICE
    assert w.tokens.sessions[digest].last_used_at == w.clock.now
    w.clock.now += POLICY.renew_every / 2
    await w.auth.authenticate("a1")
    assert w.tokens.sessions[digest].last_used_at == w.clock.now - POLICY.renew_every / 2


async def test_a_warm_request_reads_the_last_use_from_the_cache() -> None:
    w = await world()
    await w.auth.authenticate("a1")
    w.tokens.sessions.clear()  # the store is not asked again while the record is cached
    assert await w.auth.authenticate("a1") == ALICE
    w.clock.now += POLICY.idle_expiry + timedelta(hours=3)
    with pytest.raises(Unauthorized):
        await w.auth.authenticate("a1")


async def test_the_list_marks_the_current_session_and_leaves_out_expired_ones() -> None:
    w = await world()
    current = await w.auth.session("a2")
    w.clock.now += POLICY.idle_expiry - timedelta(minutes=90)  # a1 is past it, a2 not
    listed = await w.sessions.list(current)
    assert [(v.session_id, v.current) for v in listed] == [(token_digest("a2")[:16], True)]
    assert listed[0].expires_at == NOW + POLICY.idle_expiry  # renewed by this request


async def test_revoking_the_others_keeps_this_one_and_uncaches_the_rest() -> None:
    w = await world()
    await w.auth.authenticate("a1")
    current = await w.auth.session("a2")
    assert await w.sessions.revoke_others(current, "a2") == 1
    with pytest.raises(Unauthorized):
        await w.auth.authenticate("a1")
    assert await w.auth.authenticate("a2") == ALICE
    assert await w.auth.authenticate("b1") == BOB


async def test_one_session_is_revoked_by_its_id_and_only_its_owner_may() -> None:
    w = await world()
    await w.auth.authenticate("a1")
    session_id = token_digest("a1")[:16]
    with pytest.raises(NotFound):
        await w.sessions.revoke(BOB, session_id)
    await w.sessions.revoke(ALICE, session_id)
    with pytest.raises(Unauthorized):
        await w.auth.authenticate("a1")
