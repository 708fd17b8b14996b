from __future__ import annotations

from datetime import UTC, datetime

import pytest

from feedloom.domain.ids import (
    EPOCH_MS,
    MAX_SEQUENCE,
    IdGenerator,
    created_at_of,
    lowest_id_at,
    parse_id,
)


def test_ids_increase_strictly_and_carry_their_creation_time() -> None:
    now_ms = EPOCH_MS + 1_000_000
    ids = IdGenerator(worker_id=5, clock_ms=lambda: now_ms)
    first, second = ids.next_id(), ids.next_id()
    assert second == first + 1
    assert created_at_of(first) == datetime.fromtimestamp(now_ms / 1000, tz=UTC)


def test_ids_stay_monotonic_when_the_clock_steps_back() -> None:
    times = iter([EPOCH_MS + 5_000, EPOCH_MS + 4_000, EPOCH_MS + 3_000, EPOCH_MS + 6_000])
    ids = IdGenerator(clock_ms=lambda: next(times))
    minted = [ids.next_id() for _ in range(4)]
    assert minted == sorted(minted)
    assert len(set(minted)) == 4


def test_a_full_millisecond_borrows_the_next_one_instead_of_repeating() -> None:
    ids = IdGenerator(clock_ms=lambda: EPOCH_MS + 10)
    minted = [ids.next_id() for _ in range(MAX_SEQUENCE + 3)]
    assert len(set(minted)) == len(minted)
    assert minted == sorted(minted)


def test_the_worker_id_separates_processes_minting_in_the_same_millisecond() -> None:
    a = IdGenerator(worker_id=1, clock_ms=lambda: EPOCH_MS + 7).next_id()
    b = IdGenerator(worker_id=2, clock_ms=lambda: EPOCH_MS + 7).next_id()
    assert a != b


def test_a_worker_id_outside_ten_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="worker_id"):
        IdGenerator(worker_id=1024)


def test_lowest_id_at_bounds_every_id_minted_from_that_moment_on() -> None:
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    moment_ms = int(moment.timestamp() * 1000)
    minted = IdGenerator(worker_id=1023, clock_ms=lambda: moment_ms).next_id()
    assert lowest_id_at(moment) <= minted
    earlier = IdGenerator(worker_id=1023, clock_ms=lambda: moment_ms - 1).next_id()
    assert earlier < lowest_id_at(moment)


@pytest.mark.parametrize(
    "text",
    ["", "abc", "-1", "0", "01", "1e5", "9" * 20, "9223372036854775808", "\uff11\uff12", "1\n"],
)
def test_parse_id_refuses_what_is_not_a_plausible_id(text: str) -> None:
    with pytest.raises(ValueError):
        parse_id(text)


def test_parse_id_reads_decimal_strings() -> None:
    assert parse_id("385468500954578944") == 385468500954578944
