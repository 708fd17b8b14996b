"""Short smoke runs of `feedloom bench`: tiny graphs, real server subprocesses, a second
or two of load. They check that each mode finishes, reports, and measures what it says
(every pushed follower's timeline written exactly once), not how fast it is."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.bench.mixed_command import hybrid_threshold, strategy_env, strategy_threshold
from feedloom.bench.probe import histogram_quantile, parse_metrics
from feedloom.capacity.graph import generate_graph
from feedloom.cli import app
from tests.servers import POSTGRES_URL, REDIS_URL

SMALL = ["--users", "30", "--seed", "2"]
# Tiny generated graphs are dense (27-29 followers each here): pulling above the median
# follower count splits the authors into pulled and pushed ones.
MEDIAN = str(sorted(Counter(b for _, b in generate_graph(30, 2)).values())[15])


def run(*args: str) -> str:
    result = CliRunner().invoke(app, ["bench", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_bench_fanout_over_http_writes_every_pushed_followers_timeline(tmp_path: Path) -> None:
    output = run(
        "fanout", *SMALL, "--pull-above", MEDIAN, "--concurrency", "4", "--out", str(tmp_path)
    )

    figures = json.loads((tmp_path / "fanout.json").read_text())
    assert figures["post_errors"] == 0 and figures["posts"] == figures["users"] == 30
    assert 0 < figures["pulled_authors"] < 30
    assert figures["timeline_writes"] == figures["expected_timeline_writes"] > 0
    assert figures["seconds"] > 0 and figures["writes_per_second"] > 0
    assert figures["lag_p99_s"] >= figures["lag_p50_s"] >= 0
    assert (tmp_path / "fanout-latency.png").stat().st_size > 0
    assert "| **writes_per_second** |" in output


def test_bench_fanout_in_process_times_the_worker_alone(tmp_path: Path) -> None:
    run("fanout", *SMALL, "--pull-above", MEDIAN, "--in-process", "--out", str(tmp_path))

    figures = json.loads((tmp_path / "fanout.json").read_text())
    assert figures["mode"] == "in-process" and figures["posts"] == 30
    assert figures["timeline_writes"] == figures["expected_timeline_writes"] > 0
    assert figures["writes_per_second"] > 0
    assert figures["redis_cpu_s"] is None  # the embedded default has no Redis


def test_bench_fanout_with_conversations_applies_the_reply_rule_without_a_query_per_follower(
    tmp_path: Path,
) -> None:
    output = run("fanout", *SMALL, "--in-process", "--conversations", "--out", str(tmp_path))

    figures = json.loads((tmp_path / "fanout.json").read_text())
    assert figures["posts"] == 30 and figures["conversations"]["replies"] > 0
    # Replies reach only followers who also follow the account replied to: fewer writes.
    assert 0 < figures["timeline_writes"] < figures["expected_timeline_writes"]
    # The batch's relations are read once: statements grow with entries, not followers.
    assert figures["sql_statements"] < figures["posts"]
    assert figures["timeline_writes"] > 10 * figures["sql_statements"]
    assert "| SQL statements while fanning out (per entry) |" in output


@pytest.mark.postgres
@pytest.mark.redis
def test_bench_fanout_in_process_on_redis_reports_redis_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FEEDLOOM_DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("FEEDLOOM_REDIS_URL", REDIS_URL)
    output = run(
        "fanout", *SMALL, "--pull-above", MEDIAN, "--in-process", "--start", "postgres",
        "--out", str(tmp_path),
    )  # fmt: skip

    figures = json.loads((tmp_path / "fanout.json").read_text())
    assert figures["timeline_writes"] == figures["expected_timeline_writes"] > 0
    assert figures["redis_cpu_s"] > 0  # the inserts' scripts ran on Redis
    assert "| Redis CPU meanwhile (every primary) |" in output


def test_bench_read_checks_every_page_and_times_the_naive_pull_beside_it() -> None:
    output = run("read", "--users", "200", "--readers", "20", "--warmup", "5", "--rounds", "1")

    assert "mismatches 0" in output, output
    assert "| feedloom (home feed, in-process) |" in output
    assert "| naive SQL pull (SQLite, same run) |" in output
    assert "| CPU/read | Redis CPU/read |" in output  # Redis': "-" on the embedded default


def test_bench_read_with_conversations_checks_pages_and_scrolls_for_double_posts() -> None:
    output = run(
        "read", "--users", "200", "--readers", "20", "--warmup", "5", "--rounds", "1",
        "--conversations",
    )  # fmt: skip

    assert "mismatches 0" in output, output
    assert re.search(r"conversations: \d+% of activity reposts, \d+% of posts replies", output)
    assert "20 scrolls of up to 10 pages, duplicates 0" in output, output
    assert "| feedloom (home feed, in-process, conversations) |" in output


def test_bench_read_with_feeds_reads_list_saved_and_generator_feeds_beside_home() -> None:
    output = run("read", "--users", "200", "--readers", "5", "--rounds", "1", "--feeds")

    assert "mismatches 0" in output, output  # saved and generator pages equal home's
    for kind in ("home", "list", "saved", "generator"):
        assert re.search(rf"\| {kind} \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+x \|", output), output


@pytest.mark.parametrize("start", ["embedded", pytest.param("postgres", marks=pytest.mark.redis)])
def test_bench_search_times_searches_and_posting_with_and_without_the_index(
    start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FEEDLOOM_DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("FEEDLOOM_REDIS_URL", REDIS_URL)
    output = run(
        "search", "--posts", "600", "--authors", "40", "--queries", "4", "--writes", "5",
        "--start", start,
    )  # fmt: skip

    for kind in ("one word", "two words"):
        assert re.search(rf"\| {kind} \| 4 \| [\d.]+ \| [\d.]+ \| [\d.]+ \|", output), output
    assert re.search(r"Post rate with the index: [\d.]+ posts/s", output), output
    assert re.search(r"the index costs [\d.]+x", output), output


def test_bench_read_with_followed_tags_times_the_same_readers_again_pages_checked() -> None:
    output = run(
        "read", "--users", "200", "--readers", "20", "--warmup", "5", "--rounds", "1",
        "--followed-tags", "5",
    )  # fmt: skip

    assert "mismatches 0" in output, output
    assert "| feedloom, 5 followed tags |" in output
    assert re.search(r"5 followed tags / plain p50: \d+\.\d\dx", output), output


def test_bench_read_over_http_checks_every_page_closed_loop_and_paced() -> None:
    output = run(
        "read", "--users", "200", "--readers", "20", "--rounds", "1", "--http",
        "--concurrency", "4",
    )  # fmt: skip

    assert "mismatches 0, errors 0" in output, output  # the paced round's pages too
    assert re.search(r"\| GET /v1/feed\?limit=20, closed loop \| [\d,]+ \| ", output), output
    assert re.search(r"\| paced at 50% of that \([\d,]+/s due\) \| [\d,]+ \| ", output), output


def test_bench_read_over_http_reads_the_mastodon_home_timeline_beside_v1() -> None:
    output = run(
        "read", "--users", "200", "--readers", "20", "--rounds", "1", "--http",
        "--concurrency", "4", "--surface", "mastodon",
    )  # fmt: skip

    assert "mismatches 0, errors 0" in output, output  # the Mastodon pages checked too
    line = r"\| GET /api/v1/timelines/home\?limit=20, closed loop, same sitting \| [\d,]+ \| "
    assert re.search(line, output), output
    assert re.search(r"/v1 reads/s over the Mastodon surface's: [\d.]+x", output), output


@pytest.mark.parametrize("start", ["embedded", pytest.param("postgres", marks=pytest.mark.redis)])
def test_bench_import_over_http_lands_every_row_beside_the_cli_importer(
    start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FEEDLOOM_DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("FEEDLOOM_REDIS_URL", REDIS_URL)
    output = run("import", *SMALL, "--batch", "400", "--http", "--start", start)

    row = r"^\| ([^|]+?) \| ([\d,]+) \| [\d.]+ \| [\d,]+ \|$"
    rows = {name: int(count.replace(",", "")) for name, count in re.findall(row, output, re.M)}
    follows = len(generate_graph(30, 2))
    assert "failed rows 0" in output, output
    assert rows["users over HTTP (POST /v1/apps/users:batch)"] == 30
    assert rows["follows over HTTP (POST /v1/apps/follows:batch)"] == follows
    assert rows["CLI importer (import-graph), users + follows, same sitting"] == 30 + follows
    assert re.search(r"over HTTP / CLI importer, rows/s: [\d.]+x", output), output


def test_bench_lanes_reports_the_ordinary_posts_lag_beside_a_big_fan_out() -> None:
    output = run(
        "lanes", "--big", "400", "--ordinary", "5", "--per-author", "20", "--rate", "20",
        "--duration", "1",
    )  # fmt: skip

    assert "a 400-follower author's bulk fan-outs back to back" in output
    assert "| ordinary posts' fan-out lag p99 | <= " in output
    finished = re.search(r"\| big fan-outs finished \| (\d+) ", output)
    assert finished is not None and int(finished.group(1)) >= 1, output
    assert "| share of the ordinary posts' window a big fan-out was running | " in output


@pytest.mark.slow  # three servers, one after the other: ~20 s
def test_bench_mixed_compares_the_strategies_in_one_report(tmp_path: Path) -> None:
    output = run(
        "mixed", *SMALL, "--duration", "1", "--concurrency", "4", "--posts-per-user", "1",
        "--fanout", "all", "--out", str(tmp_path),
    )  # fmt: skip

    data = json.loads((tmp_path / "mixed.json").read_text())
    by_name = {result["strategy"]: result for result in data["strategies"]}
    assert list(by_name) == ["push", "pull", "hybrid"]
    for result in by_name.values():
        assert result["reads"] > 0 and result["errors"] == 0
        assert result["feed_client_p50_ms"] >= result["feed_server_p50_ms"] > 0
    assert by_name["push"]["pulled_authors"] == 0
    assert by_name["pull"]["timeline_writes"] == 0
    assert 0 < by_name["hybrid"]["pulled_authors"] < 30
    assert "| push (T = inf) | pull (T = 0) | hybrid (T = " in output
    assert (tmp_path / "mixed-latency.png").stat().st_size > 0


def test_bench_refuses_targets_other_than_this_machine() -> None:
    result = CliRunner().invoke(
        app, ["bench", "fanout", *SMALL, "--url", "http://example.com:8000", "--password", "x"]
    )

    assert result.exit_code == 2
    assert "127.0.0.1" in result.output


def test_hybrid_pulls_the_most_followed_percent_of_accounts() -> None:
    for users, most in ((30, 30), (200, 4), (1_000, 12)):
        counts = Counter(b for _, b in generate_graph(users, 1)).values()
        threshold = hybrid_threshold(generate_graph(users, 1))
        assert 1 <= sum(count > threshold for count in counts) <= most


def test_the_strategies_translate_to_thresholds_relative_to_the_graph() -> None:
    edges = generate_graph(200, 1)
    hybrid = strategy_threshold("hybrid", edges)

    assert strategy_env("push", strategy_threshold("push", edges))[
        "FEEDLOOM_FANOUT__PULL_ABOVE"
    ] == str(1_000_000_000)
    assert strategy_env("pull", 0.0)["FEEDLOOM_FANOUT__PULL_ABOVE"] == "0"
    assert hybrid is not None and 0 < hybrid < 200
    assert strategy_env("hybrid", hybrid)["FEEDLOOM_FANOUT__PULL_ABOVE"] == str(int(hybrid))


def test_fan_out_lag_quantiles_interpolate_within_the_server_buckets() -> None:
    text = "\n".join(
        [
            "# TYPE feedloom_fanout_lag_seconds histogram",
            'feedloom_fanout_lag_seconds_bucket{lane="default",le="0.1"} 50.0',
            'feedloom_fanout_lag_seconds_bucket{lane="default",le="1.0"} 90.0',
            'feedloom_fanout_lag_seconds_bucket{lane="default",le="+Inf"} 100.0',
            'feedloom_fanout_lag_seconds_bucket{lane="bulk",le="0.1"} 0.0',
            'feedloom_fanout_lag_seconds_bucket{lane="bulk",le="1.0"} 0.0',
            'feedloom_fanout_lag_seconds_bucket{lane="bulk",le="+Inf"} 0.0',
            "# TYPE feedloom_fanout_timeline_writes counter",
            "feedloom_fanout_timeline_writes_total 1234.0",
        ]
    )
    snapshot = parse_metrics(text + "\n")

    assert snapshot.timeline_writes == 1234
    assert snapshot.lag_quantile(0.5) == 0.1
    assert snapshot.lag_quantile(0.7) == 0.1 + 0.9 * (70 - 50) / (90 - 50)
    assert snapshot.lag_quantile(0.99) == 1.0  # in +Inf: the highest finite bound
    assert histogram_quantile(0.5, {}) is None


@pytest.mark.parametrize("start", ["embedded", pytest.param("postgres", marks=pytest.mark.redis)])
def test_bench_notifications_folds_one_hot_post_into_one_group_read_warm_without_sql(
    start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FEEDLOOM_DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("FEEDLOOM_REDIS_URL", REDIS_URL)
    output = run("notifications", "--likers", "40", "--reads", "3", "--start", start)

    assert "Correct: one group counting every liker, 20 groups on the page." in output
    assert "| with notification events |" in output and "| without (bench likes' path) |" in output
    assert re.search(r"Ratio with/without: \d+\.\d\dx", output)
    group = table_row(output, "| accounts_count |")
    assert group[:2] == ["40", "1 / 1"]  # accounts_count, the hot post's groups shown / kept
    statements, rows, folded, events = (int(cell) for cell in group[2:])
    assert events == 40  # one outbox row per like, with its event
    # One group row changed per fold (and the placeholder inserted once, unless the first
    # fold made it: batching decides), never per like:
    assert 1 <= folded <= 40 and folded <= rows <= folded + 1 and statements <= 2 * folded + 1
    page = table_row(output, "| notifications (20 groups) |")
    assert float(page[2]) == 0  # SQL statements per warm page
    assert float(page[3]) + float(page[4]) <= 2  # Redis round trips and fence PINGs


def table_row(output: str, starting: str) -> list[str]:
    """The cells of the row under the header `starting`, or of the row itself when it
    is not a header."""
    lines = output.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith(starting))
    row = lines[at + 2] if lines[at + 1].startswith("|-") else lines[at]
    return [cell.strip() for cell in row.strip("|").split("|")]
