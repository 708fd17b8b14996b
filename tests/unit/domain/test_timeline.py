from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.timeline import capped, merge_newest_first, newest, older_than


def test_merge_interleaves_newest_first_and_drops_duplicates() -> None:
    merged = list(merge_newest_first([[9, 5, 1], [8, 5, 2], [], [10]]))
    assert merged == [10, 9, 8, 5, 2, 1]


@given(st.lists(st.sets(st.integers(1, 10_000)), max_size=8))
def test_merge_equals_sorting_the_union(sources: list[set[int]]) -> None:
    lists = [sorted(source, reverse=True) for source in sources]
    assert list(merge_newest_first(lists)) == sorted(set().union(*sources), reverse=True)


def test_capped_keeps_the_newest() -> None:
    assert capped([9, 9, 7, 5, 3], 3) == [9, 7, 5]


def test_older_than_is_strict() -> None:
    assert older_than([9, 7, 5], 7) == [5]
    assert older_than([9, 7, 5], None) == [9, 7, 5]


@given(st.lists(st.sets(st.integers(1, 10_000)), max_size=8), st.integers(0, 50))
def test_newest_is_the_capped_merge(sources: list[set[int]], count: int) -> None:
    lists = [sorted(source, reverse=True) for source in sources]
    assert newest(lists, count) == capped(merge_newest_first(lists), count)
