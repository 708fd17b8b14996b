"""Shared fixtures: settings shrunk for tests, an app per feedloom set, a test world."""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr

from feedloom.api.app import create_app
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.settings import (
    FanoutSettings,
    GeneratorSettings,
    ListSettings,
    SavedFeedSettings,
    Settings,
)
from tests.backends import BACKEND_SETUPS, backend_names
from tests.lifespan import lifespan_of
from tests.limits import lifted_rate_limits
from tests.s3 import S3Server, s3_server
from tests.servers import TEST_SECRET_KEY
from tests.world import World

# The service's own settings come from FEEDLOOM_* variables; a developer's shell (say, a
# FEEDLOOM_DATABASE_URL left from a benchmark) must not reach the tests' apps and
# servers. The tests' own switches are FEEDLOOM_TEST_*.
for _name in [name for name in os.environ if name.startswith("FEEDLOOM_")]:
    if not _name.startswith("FEEDLOOM_TEST_"):
        del os.environ[_name]


@pytest.fixture(autouse=True)
def collector_as_found() -> Iterator[None]:
    """A test that runs a bench or a server in this process settles its heap
    (api/serving.py `settle_heap`): that must not outlive the test. Objects frozen then,
    earlier tests' garbage among them, would never be collected (datasketches' nanobind
    then listed hundreds of "leaked" sketches at exit), and the later tests would run
    with the server's collector thresholds."""
    thresholds = gc.get_threshold()
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
    gc.set_threshold(*thresholds)


def shrunk_settings(data_dir: Path) -> Settings:
    """Small limits so one test can cross every threshold (keep one test per invariant
    at the real defaults instead)."""
    return Settings(
        environment="test",
        data_dir=data_dir,
        secret_key=SecretStr(TEST_SECRET_KEY),
        password_hash_time_cost=1,
        password_hash_memory_kib=256,
        timeline_length=50,
        author_timeline_length=20,
        rate_limits=lifted_rate_limits(),
        fanout=FanoutSettings(
            pull_above=4, push_below=3, bulk_above=2, batch_size=3, bulk_batch_size=2
        ),
        lists=ListSettings(max_per_user=3, max_members=4),
        saved_feeds=SavedFeedSettings(max_per_user=8, max_muted_words=5),
        # The tests' generators listen on 127.0.0.1 (tests/stub_http.py).
        generators=GeneratorSettings(allow_loopback=True, timeout_s=1.0, max_bytes=4096),
    )


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return shrunk_settings(tmp_path)


@pytest.fixture(scope="session")
def s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    """One S3-compatible server (moto's) per test process, started on first use."""
    with s3_server(tmp_path_factory.mktemp("s3") / "moto.log") as server:
        yield server


@contextlib.asynccontextmanager
async def backend_settings(name: str, settings: Settings) -> AsyncIterator[Settings]:
    if name == "embedded":
        yield settings
    else:
        async with BACKEND_SETUPS[name](settings) as prepared:
            yield prepared


@pytest.fixture(params=backend_names())
async def backend_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
async def app_settings(backend_name: str, settings: Settings) -> AsyncIterator[Settings]:
    async with backend_settings(backend_name, settings) as prepared:
        yield prepared


@pytest.fixture
async def app(app_settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(app_settings, inline_worker=False)
    async with lifespan_of(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


@pytest.fixture
def feedloom(app: FastAPI) -> Feedloom:
    built: Feedloom = app.state.feedloom
    return built


@pytest.fixture
def world(client: httpx.AsyncClient, feedloom: Feedloom) -> World:
    return World(client, feedloom)


@pytest.fixture
async def embedded_feedloom(settings: Settings) -> AsyncIterator[Feedloom]:
    async with open_feedloom(settings) as built:
        yield built
