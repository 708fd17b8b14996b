"""`feedloom import-graph`: users and follows from an edge CSV, on every feedloom set."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.capacity.graph import Edge
from feedloom.cli import app
from feedloom.domain.model import Post, Visibility
from feedloom.settings import Settings
from feedloom.write.accounts import USERNAME
from feedloom.write.import_graph import username_for

HASH = "not-a-real-hash"
# "star" has 5 followers (more than the tests' pull_above of 4): pulled; the rest pushed.
GRAPH: list[Edge] = [
    *((f"fan{n}", "star") for n in range(1, 6)),
    ("fan1", "fan2"),
    ("fan2", "fan1"),
    ("star", "fan1"),
]


class FailOnWrite:
    """Progress that fails once the writing has started (simulates a crash mid-import)."""

    def __init__(self) -> None:
        self.writing = False

    def stage(self, name: str, total: int) -> None:
        self.writing = name.startswith("writing")

    def advance(self, done: int) -> None:
        if self.writing:
            raise RuntimeError("disk full")


async def profiles_by_name(
    feedloom: Feedloom, user_ids: dict[str, int]
) -> dict[str, tuple[int, int, bool]]:
    profiles = await feedloom.stores.profiles.profiles(list(user_ids.values()))
    return {
        csv_id: (profiles[uid].followers, profiles[uid].following, profiles[uid].pulled)
        for csv_id, uid in user_ids.items()
    }


def test_csv_ids_map_to_valid_usernames_deterministically() -> None:
    odd = ["alice@example.com", "x" * 31, "é", "a b"]
    names = [username_for(csv_id) for csv_id in ["7", "bob_1", *odd]]
    assert names[:2] == ["u_7", "u_bob_1"]
    assert all(USERNAME.match(name) for name in names)
    assert all(name.startswith("h_") for name in names[2:])
    assert len(set(names)) == len(names)
    assert [username_for(csv_id) for csv_id in odd] == names[2:]


async def test_import_recomputes_follower_counts_and_pulled_status(feedloom: Feedloom) -> None:
    result = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=False)

    assert (result.users, result.new_users, result.edges) == (6, 6, 8)
    counts = await profiles_by_name(feedloom, result.user_ids)
    assert counts["star"] == (5, 1, True)
    assert counts["fan1"] == (2, 2, False)
    assert counts["fan5"] == (0, 1, False)
    credentials = await feedloom.stores.accounts.credentials("u_star")
    assert credentials is not None and credentials.user_id == result.user_ids["star"]


async def test_reimporting_the_same_graph_adds_nothing_twice(feedloom: Feedloom) -> None:
    first = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=False)
    counts = await profiles_by_name(feedloom, first.user_ids)

    again = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=False)

    assert again.new_users == 0
    assert again.user_ids == first.user_ids
    assert await profiles_by_name(feedloom, again.user_ids) == counts
    followees = await feedloom.stores.graph.followees(first.user_ids["fan1"])
    assert sorted(f.user_id for f in followees) == sorted(
        [first.user_ids["star"], first.user_ids["fan2"]]
    )


async def test_a_grown_graph_reimports_onto_the_same_users(feedloom: Feedloom) -> None:
    first = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=False)
    grown = [*GRAPH, *((f"new{n}", "fan5") for n in range(1, 6))]

    second = await feedloom.services.graph_import.run(grown, HASH, build_timelines=False)

    assert second.new_users == 5
    assert {k: second.user_ids[k] for k in first.user_ids} == first.user_ids
    assert (await profiles_by_name(feedloom, second.user_ids))["fan5"] == (5, 1, True)


async def test_an_import_that_fails_mid_write_leaves_nothing_behind(feedloom: Feedloom) -> None:
    with pytest.raises(RuntimeError, match="disk full"):
        await feedloom.services.graph_import.run(
            GRAPH, HASH, build_timelines=False, progress=FailOnWrite()
        )

    for csv_id in ("star", "fan1", "fan5"):
        assert await feedloom.stores.accounts.credentials(username_for(csv_id)) is None


async def test_built_timelines_let_fan_out_reach_the_imported_users(feedloom: Feedloom) -> None:
    result = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=True)
    fan1, fan2 = result.user_ids["fan1"], result.user_ids["fan2"]
    assert await feedloom.caches.timelines.read(fan2, None, 10) == []

    post_id = feedloom.runtime.ids.next_id()
    post = Post(post_id, fan1, "hello", Visibility.PUBLIC, feedloom.runtime.clock())
    await feedloom.stores.posts.create_post(post, None, "", feedloom.runtime.clock())
    await feedloom.services.worker.process_pending()

    assert await feedloom.caches.timelines.read(fan2, None, 10) == [post_id]


async def test_timelines_built_on_reimport_hold_what_followees_posted(feedloom: Feedloom) -> None:
    first = await feedloom.services.graph_import.run(GRAPH, HASH, build_timelines=True)
    fan1 = first.user_ids["fan1"]
    post_id = feedloom.runtime.ids.next_id()
    post = Post(post_id, fan1, "before", Visibility.PUBLIC, feedloom.runtime.clock())
    await feedloom.stores.posts.create_post(post, None, "", feedloom.runtime.clock())
    await feedloom.services.worker.process_pending()
    await feedloom.caches.timelines.drop(first.user_ids["fan2"])  # e.g. expired while inactive

    grown = [*GRAPH, ("fan3", "fan1"), ("newcomer", "fan1"), ("loner", "newcomer")]

    second = await feedloom.services.graph_import.run(grown, HASH, build_timelines=True)

    timeline = {
        name: await feedloom.caches.timelines.read(uid, None, 10)
        for name, uid in second.user_ids.items()
    }
    # Rebuilt: a missing timeline, a user who gained a follow, a newcomer following a
    # poster; only stored: a newcomer following newcomers. The rest were current.
    assert (timeline["fan2"], timeline["fan3"], timeline["newcomer"]) == ([post_id],) * 3
    assert timeline["loner"] == []
    assert timeline["star"] == [post_id] and timeline["fan4"] == []
    assert second.timelines_built == 4


def test_a_malformed_row_is_refused_with_its_line_number(tmp_path: Path) -> None:
    csv = tmp_path / "edges.csv"
    csv.write_text("follower,followee\n1,2\n2,3\n3,3\n4,1\n")

    result = CliRunner().invoke(
        app, ["import-graph", str(csv), "--data-dir", str(tmp_path / "data")]
    )

    assert result.exit_code == 2
    assert "line 4" in result.output and "follows itself" in result.output


async def test_a_refused_csv_writes_nothing(tmp_path: Path, settings: Settings) -> None:
    csv = tmp_path / "edges.csv"
    csv.write_text("follower,followee\n1,2\n2,3\n1\n")
    data_dir = settings.data_dir

    result = CliRunner().invoke(app, ["import-graph", str(csv), "--data-dir", str(data_dir)])

    assert result.exit_code == 2 and "line 4" in result.output
    async with open_feedloom(settings) as feedloom:
        assert await feedloom.stores.accounts.credentials("u_1") is None


def test_the_command_imports_and_prints_the_generated_password(tmp_path: Path) -> None:
    csv = tmp_path / "edges.csv"
    csv.write_text("follower,followee\n1,2\n2,3\n3,1\n")
    command = ["import-graph", str(csv), "--data-dir", str(tmp_path / "data")]

    first = CliRunner().invoke(app, command)
    second = CliRunner().invoke(app, command)

    assert first.exit_code == 0, first.output
    assert "imported 3 users (3 new) and 3 follows" in first.output
    assert "password is" in first.output
    assert second.exit_code == 0 and "(0 new)" in second.output


def test_a_rerun_prints_a_password_only_for_the_users_it_created(tmp_path: Path) -> None:
    csv = tmp_path / "edges.csv"
    csv.write_text("follower,followee\n1,2\n")
    command = ["import-graph", str(csv), "--data-dir", str(tmp_path / "data")]
    assert CliRunner().invoke(app, command).exit_code == 0

    again = CliRunner().invoke(app, command)
    csv.write_text("follower,followee\n1,2\n3,1\n")
    grown = CliRunner().invoke(app, command)

    assert "no new users: all 2 keep their passwords" in again.stderr
    assert "password is" not in again.stderr
    [line] = [line for line in grown.stderr.splitlines() if "password" in line]
    assert "the 1 new users' password is " in line and "the 2 imported before keep theirs" in line
