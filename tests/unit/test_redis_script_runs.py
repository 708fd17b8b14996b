"""Per-key script arguments travel run-length encoded (scripts.py `runs`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedloom.adapters.redis.scripts import Arg, runs


def test_equal_neighbours_travel_once_with_their_count() -> None:
    a, b = b"\0\0\0\0\0\0\0\1", b"\0\0\0\0\0\0\0\2"
    assert runs([a, a, a, b, a]) == [a, 3, b, 1, a, 1]
    assert runs([]) == []


@given(st.lists(st.sampled_from([b"x", b"y", b"z"])))
def test_decoding_the_runs_gives_back_every_value_in_order(values: list[Arg]) -> None:
    encoded = runs(values)
    decoded = [v for v, n in zip(encoded[::2], encoded[1::2], strict=True) for _ in range(int(n))]
    assert decoded == values
