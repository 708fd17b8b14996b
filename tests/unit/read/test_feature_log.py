"""The feature log buffers served rows and writes them in order, off the event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import orjson

from feedloom.bootstrap import open_feedloom
from feedloom.read.ranked.feature_log import FeatureLog
from feedloom.settings import Settings


def lines(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


async def test_rows_wait_in_memory_until_a_batch_is_full(tmp_path: Path) -> None:
    log = FeatureLog(tmp_path / "features.jsonl", flush_rows=3)
    log.record([{"position": 0}, {"position": 1}])
    await asyncio.sleep(0.05)
    assert lines(log.path) == []
    log.record([{"position": 2}, {"position": 3}])
    await log.close()  # waits for the background batch, then writes nothing else
    assert [row["position"] for row in lines(log.path)] == [0, 1, 2, 3]


async def test_closing_writes_what_is_left_and_batches_append_in_order(tmp_path: Path) -> None:
    log = FeatureLog(tmp_path / "nested" / "features.jsonl", flush_rows=2)
    for position in range(7):
        log.record([{"position": position}])
    await log.close()
    assert [row["position"] for row in lines(log.path)] == list(range(7))


async def test_the_backend_keeps_a_feature_log_only_when_a_path_is_set(
    settings: Settings, tmp_path: Path
) -> None:
    async with open_feedloom(settings) as feedloom:
        assert feedloom.services.home_feed.ranked.feature_log is None

    path = tmp_path / "served.jsonl"
    settings.feed.feature_log_path = path
    async with open_feedloom(settings) as feedloom:
        log = feedloom.services.home_feed.ranked.feature_log
        assert log is not None and log.path == path
        log.record([{"post": "1"}])
    assert lines(path) == [{"post": "1"}]
