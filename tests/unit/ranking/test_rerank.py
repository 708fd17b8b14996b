"""Re-ranking: author diversity, pinning the reader's own posts, dropping seen posts."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from feedloom.ranking.rerank import diversify, drop_seen, interleave, pin_own_recent

# Items are (post_id, author_id) pairs, already in ranked order.
Item = tuple[str, str]


def author(item: Item) -> str:
    return item[1]


def post_id(item: Item) -> str:
    return item[0]


def items(authors: str) -> list[Item]:
    return [(str(i), a) for i, a in enumerate(authors)]


def authors_of(result: list[Item]) -> str:
    return "".join(author(item) for item in result)


def test_the_same_author_is_never_twice_in_a_row_when_another_choice_exists() -> None:
    assert authors_of(diversify(items("aabbc"), author)) == "ababc"


def test_a_skipped_item_keeps_its_place_ahead_of_lower_ranked_ones() -> None:
    result = diversify(items("aab"), author)
    assert [post_id(item) for item in result] == ["0", "2", "1"]


def test_the_best_remaining_other_author_is_chosen() -> None:
    # After "a", both "b" and "c" differ; the higher ranked "c" wins.
    assert authors_of(diversify(items("aacb"), author)) == "acab"


def test_a_single_author_keeps_the_ranked_order() -> None:
    ranked = items("aaaa")
    assert diversify(ranked, author) == ranked


def test_an_already_diverse_list_is_left_alone() -> None:
    ranked = items("abcabc")
    assert diversify(ranked, author) == ranked


def test_when_one_author_dominates_the_tail_holds_the_leftovers() -> None:
    assert authors_of(diversify(items("aaaab"), author)) == "abaaa"


def test_an_empty_list_stays_empty() -> None:
    assert diversify([], author) == []


@given(st.text(alphabet="abcd", max_size=40))
def test_diversify_only_repeats_an_author_when_no_other_is_left(authors: str) -> None:
    result = diversify(items(authors), author)
    assert sorted(result) == sorted(items(authors))
    for position in range(1, len(result)):
        if author(result[position]) == author(result[position - 1]):
            # A repeat is only allowed once every remaining item is by that author.
            assert {author(item) for item in result[position:]} == {author(result[position])}


def test_pinned_items_move_to_the_top_in_their_given_order() -> None:
    ranked = items("abcde")
    pinned = {"3", "1"}
    result = pin_own_recent(ranked, lambda item: post_id(item) in pinned)
    assert [post_id(item) for item in result] == ["1", "3", "0", "2", "4"]


def test_nothing_pinned_leaves_the_order_unchanged() -> None:
    ranked = items("abc")
    assert pin_own_recent(ranked, lambda item: False) == ranked


def test_seen_items_are_dropped_and_the_rest_keep_their_order() -> None:
    result = drop_seen(items("abcd"), {"0", "2", "unknown"}, post_id)
    assert [post_id(item) for item in result] == ["1", "3"]


def test_dropping_nothing_seen_keeps_everything() -> None:
    ranked = items("abc")
    assert drop_seen(ranked, set(), post_id) == ranked


def test_outside_items_take_the_slots_a_tenth_falls_on_and_never_outlast_the_inside() -> None:
    mixed = interleave(list(range(25)), ["a", "b", "c", "d"], 0.1)
    assert [i for i, item in enumerate(mixed) if isinstance(item, str)] == [9, 19]
    assert mixed[-1] == 24  # the list ends where the inside does
    assert interleave([], ["a"], 0.5) == []
    assert interleave([1, 2], ["a"], 0.0) == [1, 2]


@given(
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from([0.0, 0.05, 0.1, 0.2, 0.25, 1 / 3, 0.5]),
    st.integers(1, 20),
)
def test_any_run_of_n_items_holds_at_most_ceil_n_times_share_outside_items(
    inside: int, outside: int, share: float, n: int
) -> None:
    mixed = interleave(list(range(inside)), [f"o{i}" for i in range(outside)], share)
    assert [item for item in mixed if isinstance(item, int)] == list(range(inside))
    flags = [isinstance(item, str) for item in mixed]
    for start in range(len(flags)):
        assert sum(flags[start : start + n]) <= math.ceil(n * share)
