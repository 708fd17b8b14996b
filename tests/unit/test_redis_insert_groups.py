"""A fan-out batch travels to Redis grouped by timeline (timeline_store.py `by_owner`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedloom.adapters.redis.timeline_store import by_owner, pack_id
from feedloom.domain.timeline import PostRun


def test_each_owner_gets_its_posts_ascending_once_each() -> None:
    runs: list[PostRun] = [(30, [1, 2]), (10, [2, 3]), (30, [2]), (20, [1])]
    assert by_owner(runs) == {
        1: [pack_id(20), pack_id(30)],
        2: [pack_id(10), pack_id(30)],
        3: [pack_id(10)],
    }


@given(
    st.lists(
        st.tuples(st.integers(1, 50), st.lists(st.integers(1, 8), max_size=6, unique=True)),
        max_size=30,
    )
)
def test_grouping_loses_and_invents_no_insert(runs: list[PostRun]) -> None:
    groups = by_owner(runs)
    expected: dict[int, set[int]] = {}
    for post_id, owners in runs:
        for owner in owners:
            expected.setdefault(owner, set()).add(post_id)
    assert set(groups) == set(expected)
    for owner, group in groups.items():
        assert group == [pack_id(post) for post in sorted(expected[owner])]
