"""ObjectStore contract on every adapter: the local directory and an S3-compatible
bucket (moto's server, started by the test run): put, get, delete by name, and names
that could leave the directory or reach another prefix are refused. The bucket's
direct uploads (DirectUploads) and signed reads (SignedReads) have their own contract
below."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from feedloom.adapters.files.object_store import LocalObjectStore
from feedloom.adapters.s3.object_store import S3ObjectStore, s3_object_store
from feedloom.ports import ObjectStore
from tests.s3 import S3Server, new_bucket


@pytest.fixture
async def bucket(s3: S3Server) -> AsyncIterator[S3ObjectStore]:
    async with new_bucket(s3) as config, s3_object_store(config) as store:
        yield store


@pytest.fixture(params=["files", "s3"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[ObjectStore]:
    if request.param == "files":
        yield LocalObjectStore(tmp_path / "media")
        return
    server: S3Server = request.getfixturevalue("s3")  # started only when a test needs it
    async with new_bucket(server) as config, s3_object_store(config) as bucket:
        yield bucket


async def test_an_object_is_stored_read_back_replaced_and_deleted(store: ObjectStore) -> None:
    assert await store.get("1.png") is None
    await store.put("1.png", b"one", "image/png")
    assert await store.get("1.png") == b"one"
    await store.put("1.png", b"two", "image/png")
    assert await store.get("1.png") == b"two"
    await store.delete(["1.png", "never-there.png"])
    assert await store.get("1.png") is None


async def test_many_names_are_deleted_at_once(store: ObjectStore) -> None:
    names = [f"{i}.webp" for i in range(1_200)]  # more than one DeleteObjects call
    for name in (names[0], names[-1]):
        await store.put(name, b"x", "image/webp")
    await store.delete(names)
    assert (await store.get(names[0]), await store.get(names[-1])) == (None, None)


@pytest.mark.parametrize("name", ["../x.png", "a/b.png", ".hidden", "", "a\\b.png"])
async def test_names_that_leave_the_directory_are_refused(store: ObjectStore, name: str) -> None:
    with pytest.raises(ValueError):
        await store.put(name, b"x", "image/png")
    assert await store.get(name) is None


async def test_a_file_is_written_whole_with_no_partial_file_left(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path / "media")
    await store.put("1.png", b"one", "image/png")
    await store.delete(["1.png"])
    assert [p.name for p in (tmp_path / "media").iterdir()] == []


async def test_a_direct_upload_waits_unchecked_beside_the_objects(bucket: S3ObjectStore) -> None:
    url = await bucket.upload_url("7-abc.png", "image/png", timedelta(minutes=15))
    assert await bucket.upload_size("7-abc.png") is None
    async with httpx.AsyncClient() as http:
        sent = await http.put(url, content=b"12345", headers={"Content-Type": "image/png"})
    assert sent.status_code == 200, sent.text
    assert await bucket.upload_size("7-abc.png") == 5
    assert await bucket.read_upload("7-abc.png", max_bytes=5) == b"12345"
    with pytest.raises(ValueError, match="more than 4"):
        await bucket.read_upload("7-abc.png", max_bytes=4)
    assert await bucket.get("7-abc.png") is None  # an upload is never an object
    await bucket.drop_upload("7-abc.png")
    assert await bucket.read_upload("7-abc.png", max_bytes=5) is None


async def test_deleting_a_name_deletes_its_upload_too(bucket: S3ObjectStore) -> None:
    url = await bucket.upload_url("8-abc.png", "image/png", timedelta(minutes=15))
    async with httpx.AsyncClient() as http:
        await http.put(url, content=b"x", headers={"Content-Type": "image/png"})
    await bucket.put("8-abc.png", b"checked", "image/png")
    await bucket.delete(["8-abc.png"])
    assert await bucket.get("8-abc.png") is None
    assert await bucket.upload_size("8-abc.png") is None


async def test_a_signed_read_serves_the_object_for_a_while(bucket: S3ObjectStore) -> None:
    await bucket.put("9-abc.webp", b"pixels", "image/webp")
    url = await bucket.read_url("9-abc.webp", timedelta(hours=1))
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=3600" in url
    async with httpx.AsyncClient() as http:
        served = await http.get(url)
    assert (served.status_code, served.content) == (200, b"pixels")
    assert served.headers["content-type"] == "image/webp"
    assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
