"""Contract: generation-guarded records (RecordCache), on every adapter."""

from __future__ import annotations

from tests.contract.conftest import Caches


async def test_a_filler_stores_under_the_generation_it_read(caches: Caches) -> None:
    records = caches.records()
    [(missing, generation)] = await records.get_many(["a"])
    assert missing is None
    await records.put("a", b"truth", generation)
    assert await records.get_many(["a", "b"]) == [(b"truth", generation), (None, 0)]


async def test_a_filler_that_read_before_a_write_stores_nothing(caches: Caches) -> None:
    records = caches.records()
    [(_, before)] = await records.get_many(["a"])
    await records.invalidate(["a"])  # a write committed meanwhile
    await records.put("a", b"stale", before)
    [(record, after)] = await records.get_many(["a"])
    assert record is None and after != before


async def test_invalidating_drops_the_record_and_a_new_fill_sees_the_new_generation(
    caches: Caches,
) -> None:
    records = caches.records()
    await records.put("a", b"old", 0)
    await records.invalidate(["a", "never-cached"])
    [(record, generation)] = await records.get_many(["a"])
    assert record is None
    await records.put("a", b"new", generation)
    assert (await records.get_many(["a"]))[0][0] == b"new"


async def test_an_append_extends_a_cached_record_and_leaves_a_missing_one_missing(
    caches: Caches,
) -> None:
    records = caches.records()
    await records.put("a", b"12", 0)
    [(_, stale)] = await records.get_many(["b"])
    await records.append_if_present("a", b"34")
    await records.append_if_present("b", b"34")
    await records.put("b", b"stale fill", stale)  # the append moved b's generation
    assert [record for record, _ in await records.get_many(["a", "b"])] == [b"1234", None]
