"""Unit tests of AccountLifecycle over fakes: what a suspension revokes, uncaches and
forgets, and what a deleted account still allows."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

import pytest
from argon2 import PasswordHasher

from feedloom.domain.errors import Conflict, NotFound
from feedloom.domain.model import Comment, Counts, Post, Role
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import AccountRecord, Erasure
from feedloom.write import account_lifecycle
from feedloom.write.account_lifecycle import AccountLifecycle
from feedloom.write.erase_account import EraseAccount
from feedloom.write.passwords import Passwords
from tests.unit.fakes import (
    FakeAccountEraser,
    FakeAuthorTimelineStore,
    FakeCounterStore,
    FakeEngagement,
    FakeGraphReader,
    FakeObjectStore,
    FakePostArchive,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
    FakeTimelineStore,
    FakeViewCache,
    clock,
    id_generator,
    new_post,
    user,
    views_over,
)

ALICE = 1


class FakeAccountAdmin:
    def __init__(self) -> None:
        self.record = AccountRecord(ALICE, "alice", "Alice", None, None, None)
        self.tokens = {"t1": ALICE, "t2": ALICE, "other": 2}
        self.hashes: list[str] = []

    async def account(self, username: str) -> AccountRecord | None:
        return self.record if username == "alice" else None

    async def user_ids(self, after: int, limit: int) -> list[int]:
        return [ALICE][:limit] if after < ALICE else []

    async def modify(
        self, user_id: int, display_name: str | None, password_hash: str | None
    ) -> None:
        self.record = replace(self.record, display_name=display_name or self.record.display_name)
        self.hashes += [password_hash] if password_hash else []

    async def set_role(self, user_id: int, role: Role | None) -> None:
        self.record = replace(self.record, role=role)

    async def set_suspended(self, user_id: int, at: datetime | None) -> None:
        self.record = replace(self.record, suspended_at=at)

    async def set_deleted(self, user_id: int, at: datetime) -> None:
        self.record = replace(self.record, deleted_at=at)

    async def revoke_tokens(self, user_id: int) -> list[str]:
        mine = [digest for digest, owner in self.tokens.items() if owner == user_id]
        for digest in mine:
            del self.tokens[digest]
        return mine


class ErasingAdmin(EraseAccount):
    """The real EraseAccount over a fake eraser that marks the fake admin's record."""

    def __init__(self, admin: FakeAccountAdmin, views: Views, tokens: FakeRecordCache) -> None:
        self._admin = admin
        profiles = FakeProfileStore(user(ALICE))
        states = ReaderStates(
            FakeRecordCache(),
            FakeGraphReader(FakeRelationStore(profiles), profiles),
            FakePreferenceStore(),
            FakeReposts(),
            FakeTags(),
        )
        eraser = FakeAccountEraser(Erasure([], [], [], ["t1", "t2"], []))
        counters = FakeCounterStore()
        super().__init__(
            eraser,
            DisplayedCounts(counters, FakeEngagement(), CounterBuffer(counters)),
            tokens,
            views,
            states,
            FakeTimelineStore(),
            FakeAuthorTimelineStore(),
            FakeObjectStore(),
            clock,
        )

    async def __call__(self, user_id: int) -> Erasure:
        await self._admin.set_deleted(user_id, clock())
        return await super().__call__(user_id)


@dataclass
class World:
    lifecycle: AccountLifecycle
    admin: FakeAccountAdmin
    posts: FakePostStore
    post_cache: FakeViewCache[Post]
    token_cache: FakeRecordCache
    engagement: FakeEngagement
    counters: FakeCounterStore


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(account_lifecycle, "FORGET_BATCH", 2)  # three posts: two batches
    ids = id_generator()
    posts = FakePostStore(*(new_post(ids, ALICE) for _ in range(3)))
    post_cache, token_cache = FakeViewCache[Post](), FakeRecordCache()
    views = views_over(posts, FakeProfileStore(user(ALICE)), post_cache)
    admin = FakeAccountAdmin()
    passwords = Passwords(PasswordHasher(1, 256), 1, 4)
    erase = ErasingAdmin(admin, views, token_cache)
    archive = FakePostArchive(posts)
    engagement, counters = FakeEngagement(), FakeCounterStore()
    counts = DisplayedCounts(counters, engagement, CounterBuffer(counters))
    lifecycle = AccountLifecycle(
        admin, archive, token_cache, views, passwords, erase, engagement, counts, clock
    )
    return World(lifecycle, admin, posts, post_cache, token_cache, engagement, counters)


async def test_a_suspension_revokes_and_uncaches_every_token_and_forgets_every_post_view(
    world: World,
) -> None:
    for post in world.posts.by_id.values():
        world.post_cache.data[post.id] = post
    for digest in ("t1", "t2", "other"):
        world.token_cache.records[digest] = b"1"

    suspended = await world.lifecycle.suspend("alice")

    assert suspended.suspended_at == clock()
    assert world.admin.tokens == {"other": 2}
    assert set(world.token_cache.records) == {"other"}
    assert world.post_cache.data == {}  # across both batches


async def test_a_suspension_and_a_reinstatement_recount_every_post_the_account_commented_on(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(account_lifecycle, "RECOUNT_BATCH", 2)  # three posts: two batches
    commented = [10, 11, 12]
    for n, post_id in enumerate([*commented, 11]):
        world.engagement.comment_list.append(Comment(100 + n, post_id, ALICE, "hi", clock()))
    world.engagement.comment_list.append(Comment(200, 13, 2, "not alice's", clock()))
    stale = {post_id: Counts(comments=9) for post_id in [*commented, 13]}

    for change in (world.lifecycle.suspend, world.lifecycle.reinstate):
        await world.counters.set_many(stale)
        await change("alice")
        # The fake knows no suspensions: its truth is every comment, so a recount shows.
        assert await world.counters.get_many([*commented, 13]) == {
            10: Counts(comments=1),
            11: Counts(comments=2),
            12: Counts(comments=1),
            13: Counts(comments=9),  # no comment of alice's: left alone
        }


async def test_a_second_suspension_keeps_the_time_of_the_first(world: World) -> None:
    earlier = datetime(2020, 1, 1, tzinfo=UTC)
    world.admin.record = replace(world.admin.record, suspended_at=earlier)
    assert (await world.lifecycle.suspend("alice")).suspended_at == earlier


async def test_a_deleted_account_cannot_be_reinstated_or_changed(
    world: World,
) -> None:
    lifecycle = world.lifecycle
    await lifecycle.delete("alice")
    for change in (
        lifecycle.reinstate("alice"),
        lifecycle.set_role("alice", Role.MODERATOR),
        lifecycle.modify("alice", "New", None),
    ):
        with pytest.raises(Conflict):
            await change


async def test_an_unknown_account_is_not_found(
    world: World,
) -> None:
    with pytest.raises(NotFound):
        await world.lifecycle.suspend("nobody")


async def test_a_new_password_is_hashed_and_signs_out_a_new_name_does_not(
    world: World,
) -> None:
    lifecycle, admin = world.lifecycle, world.admin
    await lifecycle.modify("alice", "Al", None)
    assert "t1" in admin.tokens and admin.record.display_name == "Al"
    await lifecycle.modify("alice", None, "a long new password")
    assert "t1" not in admin.tokens
    assert PasswordHasher().verify(admin.hashes[0], "a long new password")
