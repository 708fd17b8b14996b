"""The fan-out simulation on small graphs whose every figure is worked out by hand."""

import itertools
import json
import math
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from feedloom.capacity.graph import generate_graph
from feedloom.capacity.simulate import (
    SimulationRow,
    parse_thresholds,
    percentile,
    plot_simulation,
    render_simulation,
    result_as_dict,
    simulate,
    simulation_lines,
)

# Follower counts: a 4, b 2, c 1, d 0, e 0.
# Followees: a -> c; b -> a; c -> a, b; d -> a, b; e -> a.
EDGES = [
    ("b", "a"),
    ("c", "a"),
    ("d", "a"),
    ("e", "a"),
    ("c", "b"),
    ("d", "b"),
    ("a", "c"),
]
INF = math.inf


def row(threshold: float) -> SimulationRow:
    (only,) = simulate(EDGES, [threshold]).rows
    return only


def test_pure_push_writes_one_entry_per_follower_and_reads_one_list() -> None:
    # writes per author sorted: [0, 0, 1, 2, 4]; every reader reads only its own timeline.
    assert asdict(row(INF)) == {
        "threshold": INF,
        "pulled_authors": 0,
        "writes_per_post_p50": 1,
        "writes_per_post_p99": 4,
        "writes_per_post_max": 4,
        "total_writes": 7,
        "read_sources_p50": 1,
        "read_sources_p99": 1,
        "p_slow_at_p50": pytest.approx(0.01),
        "p_slow_at_p99": pytest.approx(0.01),
    }


def test_threshold_two_pulls_only_the_author_with_more_than_two_followers() -> None:
    # a is pulled. writes: a 0, b 2, c 1, d 0, e 0 -> [0, 0, 0, 1, 2].
    # sources: a 1, b 2, c 2, d 2, e 2 -> [1, 2, 2, 2, 2].
    assert asdict(row(2)) == {
        "threshold": 2,
        "pulled_authors": 1,
        "writes_per_post_p50": 0,
        "writes_per_post_p99": 2,
        "writes_per_post_max": 2,
        "total_writes": 3,
        "read_sources_p50": 2,
        "read_sources_p99": 2,
        "p_slow_at_p50": pytest.approx(1 - 0.99**2),
        "p_slow_at_p99": pytest.approx(1 - 0.99**2),
    }


def test_a_threshold_equal_to_the_follower_count_keeps_that_author_pushed() -> None:
    # b has exactly 2 followers: "more than T" pulls it at T = 1, not at T = 2.
    assert row(2).pulled_authors == 1
    assert row(1).pulled_authors == 2


def test_threshold_one_pulls_a_and_b() -> None:
    # writes: c 1, others 0 -> [0, 0, 0, 0, 1].
    # sources: a 1, b 2 (a), c 3 (a, b), d 3 (a, b), e 2 (a) -> [1, 2, 2, 3, 3].
    assert asdict(row(1)) == {
        "threshold": 1,
        "pulled_authors": 2,
        "writes_per_post_p50": 0,
        "writes_per_post_p99": 1,
        "writes_per_post_max": 1,
        "total_writes": 1,
        "read_sources_p50": 2,
        "read_sources_p99": 3,
        "p_slow_at_p50": pytest.approx(0.0199),
        "p_slow_at_p99": pytest.approx(0.029701),
    }


def test_pure_pull_writes_nothing_and_reads_one_list_per_followee() -> None:
    # Every author with a follower (a, b, c) is pulled: nothing is pushed, so there is
    # no home timeline. sources: a 1, b 1, c 2, d 2, e 1 -> [1, 1, 1, 2, 2].
    assert asdict(row(0)) == {
        "threshold": 0,
        "pulled_authors": 3,
        "writes_per_post_p50": 0,
        "writes_per_post_p99": 0,
        "writes_per_post_max": 0,
        "total_writes": 0,
        "read_sources_p50": 1,
        "read_sources_p99": 2,
        "p_slow_at_p50": pytest.approx(0.01),
        "p_slow_at_p99": pytest.approx(0.0199),
    }


def test_pure_pull_reads_the_median_readers_followees_as_the_design_counts_them() -> None:
    # DESIGN.md section 6: a median reader of 79 followees merges 79 lists, not 80.
    edges = [(f"r{reader}", f"a{author}") for reader in range(3) for author in range(79)]
    (pure_pull,) = simulate(edges, [0]).rows
    assert pure_pull.read_sources_p99 == 79  # the readers; the 79 authors read nothing


def test_the_own_list_model_of_pure_pull_is_an_explicit_option() -> None:
    # sources: a 2, b 2, c 3, d 3, e 2 -> [2, 2, 2, 3, 3].
    (only,) = simulate(EDGES, [0], own_list_under_pull=True).rows
    assert asdict(only) == {
        "threshold": 0,
        "pulled_authors": 3,
        "writes_per_post_p50": 0,
        "writes_per_post_p99": 0,
        "writes_per_post_max": 0,
        "total_writes": 0,
        "read_sources_p50": 2,
        "read_sources_p99": 3,
        "p_slow_at_p50": pytest.approx(0.0199),
        "p_slow_at_p99": pytest.approx(0.029701),
    }


def test_follower_stats_are_nearest_rank_over_every_account_with_top5_by_count() -> None:
    followers = simulate(EDGES, [INF]).followers
    # counts sorted [0, 0, 1, 2, 4]: p50 rank ceil(2.5) = 3, p99 rank ceil(4.95) = 5.
    assert followers.median == 1
    assert followers.p99 == 4
    assert followers.top5 == [("a", 4), ("b", 2), ("c", 1), ("d", 0), ("e", 0)]


def test_rows_come_back_in_the_order_the_thresholds_were_given() -> None:
    result = simulate(EDGES, [0, INF, 2])
    assert [r.threshold for r in result.rows] == [0, INF, 2]
    assert (result.users, result.edges) == (5, 7)


def test_duplicate_edges_count_once() -> None:
    assert simulate([*EDGES, ("b", "a")], [INF]) == simulate(EDGES, [INF])


def test_an_empty_graph_or_no_thresholds_is_refused() -> None:
    with pytest.raises(ValueError, match="no edges"):
        simulate([], [INF])
    with pytest.raises(ValueError, match="threshold"):
        simulate(EDGES, [])


@pytest.mark.parametrize(
    ("p", "expected"),
    # The textbook nearest-rank example: 30th -> rank 2, 40th -> rank 2, 50th -> rank 3.
    [(0, 15), (5, 15), (30, 20), (40, 20), (50, 35), (99, 50), (100, 50)],
)
def test_percentile_is_nearest_rank(p: float, expected: int) -> None:
    assert percentile([50, 15, 40, 20, 35], p) == expected


def test_percentile_ranks_are_exact_for_decimal_percentiles() -> None:
    # 99.9 / 100 * 1000 in binary floats is a hair above 999; the rank must still be 999.
    assert percentile(list(range(1, 101)), 99) == 99
    assert percentile(list(range(1, 1001)), 99.9) == 999


def test_percentile_refuses_no_values_and_out_of_range_p() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1], 101)


def test_thresholds_parse_inf_and_numbers_in_order() -> None:
    assert parse_thresholds("inf, 5000,1000,200,0") == [INF, 5000, 1000, 200, 0]
    assert parse_thresholds("12.5") == [12.5]


@pytest.mark.parametrize("text", ["", "inf,,0", "abc", "-1", "nan", "10;20"])
def test_thresholds_that_are_not_non_negative_numbers_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="threshold"):
        parse_thresholds(text)


def test_result_as_dict_has_exactly_the_documented_fields_and_inf_as_a_string() -> None:
    data = json.loads(json.dumps(result_as_dict(simulate(EDGES, [INF, 2, 0])), allow_nan=False))
    assert data["followers"] == {
        "median": 1,
        "p99": 4,
        "top5": [["a", 4], ["b", 2], ["c", 1], ["d", 0], ["e", 0]],
    }
    assert [r["threshold"] for r in data["rows"]] == ["inf", 2, 0]
    assert list(data["rows"][0]) == [
        "threshold",
        "pulled_authors",
        "writes_per_post_p50",
        "writes_per_post_p99",
        "writes_per_post_max",
        "total_writes",
        "read_sources_p50",
        "read_sources_p99",
        "p_slow_at_p50",
        "p_slow_at_p99",
    ]
    assert set(data) == {"followers", "rows"}


def test_render_simulation_prints_one_line_per_threshold() -> None:
    console = Console(record=True, width=200)
    render_simulation(simulate(EDGES, [INF, 0]), console)
    text = console.export_text()
    assert "inf" in text
    assert "1.0%" in text
    assert "median 1" in text
    assert "a (4)" in text


def test_the_table_of_the_documented_graph_fits_80_columns() -> None:
    result = simulate(generate_graph(10_000, seed=1), [INF, 5000, 1000, 200, 0])
    lines = simulation_lines(result)
    assert max(map(len, lines)) <= 80
    assert lines[3].split()[0] == "inf" and len(lines) == 3 + 5 + 3


def test_plot_simulation_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "sim.png"
    plot_simulation(simulate(EDGES, [INF, 2, 0]), path)
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


ids = st.integers(min_value=1, max_value=12).map(str)
graphs = st.lists(st.tuples(ids, ids).filter(lambda e: e[0] != e[1]), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(graphs)
def test_lowering_the_threshold_trades_writes_for_read_sources(
    edges: list[tuple[str, str]],
) -> None:
    rows = simulate(edges, [INF, 3, 1, 0], own_list_under_pull=True).rows
    assert rows[0].total_writes == len(set(edges))
    assert rows[-1].total_writes == 0
    for higher, lower in itertools.pairwise(rows):
        assert lower.total_writes <= higher.total_writes
        assert lower.read_sources_p99 >= higher.read_sources_p99
        assert lower.pulled_authors >= higher.pulled_authors
