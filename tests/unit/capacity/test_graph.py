"""Edge CSV reading/writing and the heavy-tailed graph generator."""

from collections import Counter
from pathlib import Path

import pytest

from feedloom.capacity.graph import (
    GraphFormatError,
    generate_graph,
    read_graph_csv,
    write_graph_csv,
)
from feedloom.capacity.simulate import percentile


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "edges.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_integer_and_string_ids_are_read_as_string_pairs(tmp_path: Path) -> None:
    path = write(tmp_path, "follower,followee\n1,2\nalice,bob\n 3 , carol \nx\u2028y,z\n")
    assert read_graph_csv(path) == [("1", "2"), ("alice", "bob"), ("3", "carol"), ("x\u2028y", "z")]


def test_duplicate_edges_are_kept_once_in_first_seen_order(tmp_path: Path) -> None:
    path = write(tmp_path, "follower,followee\n1,2\n2,1\n1,2\n")
    assert read_graph_csv(path) == [("1", "2"), ("2", "1")]


def test_blank_lines_are_skipped_without_shifting_line_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "follower,followee\n\n1,2\n\n3,3\n")
    with pytest.raises(GraphFormatError, match="line 5:"):
        read_graph_csv(path)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("", 1, "header"),
        ("followee,follower\n1,2\n", 1, "header"),
        ("follower,followee,since\n1,2,x\n", 1, "header"),
        ("follower,followee\n1,2\n1,2,3\n", 3, "2 columns"),
        ("follower,followee\n1,2\n4,5\n7\n", 4, "2 columns"),
        ("follower,followee\n1,\n", 2, "empty"),
        ("follower,followee\n ,2\n", 2, "empty"),
        ("follower,followee\n1,2\n2,3\n3,3\n", 4, "follows itself"),
        ('follower,followee\n1,2\n"a\nb",1\n2,2\n', 5, "follows itself"),
        ('follower,followee\n1,2\n"a"x,1\n', 3, "expected after"),
        ('follower,followee\n1,2\n"a,1\n', 3, "unexpected end of data"),
    ],
)
def test_a_bad_row_names_its_one_based_line(
    tmp_path: Path, text: str, line: int, problem: str
) -> None:
    with pytest.raises(GraphFormatError, match=f"^line {line}: .*{problem}") as caught:
        read_graph_csv(write(tmp_path, text))
    assert caught.value.line == line


def test_bytes_that_are_not_utf8_are_a_format_error_with_a_line(tmp_path: Path) -> None:
    path = tmp_path / "edges.csv"
    # Far enough down that a buffered decoder would fail before reaching the bad line.
    path.write_bytes(b"follower,followee\n" + b"1,2\n" * 10_000 + b"\xff\xfe,3\n")
    with pytest.raises(GraphFormatError, match=r"^line 10002: not valid UTF-8"):
        read_graph_csv(path)


def test_written_edges_read_back_unchanged(tmp_path: Path) -> None:
    edges = [("1", "2"), ("b", "a,c"), ("3", "1")]
    path = tmp_path / "out.csv"
    write_graph_csv(edges, path)
    assert path.read_text().splitlines()[0] == "follower,followee"
    assert read_graph_csv(path) == edges


def test_the_generator_is_deterministic_for_a_seed() -> None:
    assert generate_graph(300, seed=7) == generate_graph(300, seed=7)
    assert generate_graph(300, seed=7) != generate_graph(300, seed=8)


def test_generated_edges_are_distinct_not_self_follows_and_use_ids_one_to_n() -> None:
    edges = generate_graph(300, seed=1)
    assert len(set(edges)) == len(edges)
    assert all(follower != followee for follower, followee in edges)
    assert {user for edge in edges for user in edge} == {str(i) for i in range(1, 301)}


def test_every_user_follows_10_to_149_accounts_plus_big_accounts() -> None:
    users = 1_000
    edges = generate_graph(users, seed=3)
    follows = Counter(follower for follower, _ in edges)
    big_accounts = 5  # 0.5% of 1,000
    assert len(follows) == users
    assert min(follows.values()) >= 10
    assert max(follows.values()) <= 149 + big_accounts


def test_the_generated_follower_counts_are_heavy_tailed() -> None:
    users = 2_000
    followers = Counter(followee for _, followee in generate_graph(users, seed=5))
    counts = [followers[str(i)] for i in range(1, users + 1)]
    median = percentile(counts, 50)
    # The big accounts: at least 30% of all users follow the most-followed one...
    assert max(counts) >= 0.3 * users
    # ...while the typical account has a few dozen followers.
    assert 10 <= median <= 0.05 * users
    assert percentile(counts, 99) >= 5 * median


def test_a_tiny_graph_lets_each_user_follow_everyone_else() -> None:
    # 10..149 follows capped at users - 1 = 3: the complete directed graph.
    edges = generate_graph(4, seed=0)
    assert sorted(edges) == sorted((a, b) for a in "1234" for b in "1234" if a != b)


def test_a_graph_needs_at_least_two_users() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        generate_graph(1, seed=0)
