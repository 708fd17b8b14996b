"""`feedloom events list | show | replay`: the dead letters, on the embedded default."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.bootstrap import open_feedloom
from feedloom.cli import app
from feedloom.domain.model import PostPublished
from feedloom.settings import Settings


@pytest.fixture
def dead_letter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("FEEDLOOM_REDIS_URL", raising=False)
    monkeypatch.delenv("FEEDLOOM_DATABASE_URL", raising=False)

    async def set_aside() -> None:
        async with open_feedloom(Settings(data_dir=tmp_path, environment="test")) as feedloom:
            event = PostPublished(post_id=42, author_id=7)
            now = feedloom.runtime.clock()
            await feedloom.stores.dead_letters.add(event, "bulk", 3, "ValueError: bad\nmore", now)

    asyncio.run(set_aside())
    return tmp_path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["events", *args])
    return result.exit_code, result.stdout, result.stderr


def test_list_show_and_replay_a_dead_letter(dead_letter: Path) -> None:
    code, out, err = run("list", "--data-dir", str(dead_letter))
    assert code == 0, err
    [line] = out.splitlines()
    assert line.startswith("1\t") and "\tbulk\tPostPublished(post 42, author 7)\t3\t" in line
    assert line.endswith("ValueError: bad") and "1 dead letters" in err
    code, out, _ = run("show", "1", "--data-dir", str(dead_letter))
    assert code == 0 and "error:\nValueError: bad\nmore" in out
    code, out, _ = run("replay", "1", "--data-dir", str(dead_letter))
    assert code == 0 and out.strip() == "replayed 1 events"
    code, out, err = run("list", "--data-dir", str(dead_letter))
    assert (code, out) == (0, "") and "0 dead letters" in err


def test_show_of_an_unknown_id_and_replay_without_ids_are_refused(dead_letter: Path) -> None:
    code, _, err = run("show", "99", "--data-dir", str(dead_letter))
    assert code == 2 and err.strip() == "feedloom: no dead letter 99"
    code, _, err = run("replay", "--data-dir", str(dead_letter))
    assert code == 2 and "name dead letter ids or --all" in err
