"""ObjectStore contract on the local directory adapter: put, get, delete by name, and
names that could leave the directory are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from feedloom.adapters.files.object_store import LocalObjectStore


async def test_an_object_is_stored_read_back_replaced_and_deleted(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path / "media")
    assert await store.get("1.png") is None
    await store.put("1.png", b"one", "image/png")
    assert await store.get("1.png") == b"one"
    await store.put("1.png", b"two", "image/png")
    assert await store.get("1.png") == b"two"
    await store.delete(["1.png", "never-there.png"])
    assert await store.get("1.png") is None
    assert [p.name for p in (tmp_path / "media").iterdir()] == []  # no partial files left


@pytest.mark.parametrize("name", ["../x.png", "a/b.png", ".hidden", ""])
async def test_names_that_leave_the_directory_are_refused(tmp_path: Path, name: str) -> None:
    store = LocalObjectStore(tmp_path)
    with pytest.raises(ValueError):
        await store.put(name, b"x", "image/png")
    assert await store.get(name) is None
