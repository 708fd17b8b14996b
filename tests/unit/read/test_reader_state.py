"""ReaderStates keeps each reader's last record decoded: a changed record is decoded
again, so a relation change is seen on the very next read."""

from __future__ import annotations

from datetime import UTC, datetime

from feedloom.domain.model import UserProfile
from feedloom.lookups import reader_state
from feedloom.lookups.reader_state import ReaderStates
from tests.unit.fakes import (
    FakeGraphReader,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReposts,
    FakeTags,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _world(decoded: int = reader_state.DECODED) -> tuple[ReaderStates, FakeRelationStore]:
    profiles = FakeProfileStore(*(UserProfile(i, f"u{i}", f"U{i}", None) for i in (1, 2, 3)))
    relations = FakeRelationStore(profiles)
    graph = FakeGraphReader(relations, profiles)
    return ReaderStates(
        FakeRecordCache(), graph, FakePreferenceStore(), FakeReposts(), FakeTags(), decoded
    ), relations


async def test_the_same_record_is_decoded_once_and_a_changed_one_again() -> None:
    states, relations = _world()
    await relations.follow(1, 2, NOW)
    await states.relations(1)  # a miss: loaded from the store and cached
    cached = await states.relations(1)
    assert await states.relations(1) is cached  # the same bytes: the same decoded relations
    await relations.follow(1, 3, NOW)
    await states.changed([1])
    assert (await states.relations(1)).following == {2, 3}


async def test_the_decoded_records_stay_bounded() -> None:
    states, relations = _world(decoded=2)
    for reader in (1, 2, 3):
        await states.relations(reader)
        await states.relations(reader)
    assert len(states._decoded) <= 2
    await relations.mute(1, 2, NOW)
    await states.changed([1])
    assert (await states.relations(1)).muted == {2}
