"""Real feedloom processes for multi-process tests: `python -m feedloom serve|worker`
with settings from the environment, output captured to files, always stopped; and the
environment of either backend (`backend_env`) for tests run on both."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.limits import lifted_rate_limit_env
from tests.servers import (
    POSTGRES_URL,
    REDIS_URL,
    TEST_SECRET_KEY,
    scratch_redis_prefix,
    scratch_schema,
)

READY_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    url: str | None = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    def tail(self, lines: int = 30) -> str:
        text = self.log.read_text(errors="replace").splitlines()
        return f"--- {self.name} (pid {self.pid}, exit {self.popen.poll()}) ---\n" + "\n".join(
            text[-lines:]
        )


@dataclass
class Fleet:
    """The processes of one test; `stop` ends them all, politely first."""

    env: Mapping[str, str]
    logs: Path
    processes: list[Process] = field(default_factory=list)

    def start(self, name: str, *args: str, worker_id: int, url: str | None = None) -> Process:
        log = self.logs / f"{name}.log"
        env = {**self.env, "FEEDLOOM_WORKER_ID": str(worker_id)}
        with log.open("wb") as out:
            popen = subprocess.Popen(
                [sys.executable, "-m", "feedloom", *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        process = Process(name, popen, log, url)
        self.processes.append(process)
        return process

    def api(self, name: str, worker_id: int) -> Process:
        port = free_port()
        args = ("serve", "--no-demo", "--no-inline-worker", "--port", str(port))
        return self.start(name, *args, worker_id=worker_id, url=f"http://127.0.0.1:{port}")

    def worker(self, name: str, worker_id: int, concurrency: int = 2) -> Process:
        return self.start(name, "worker", "--concurrency", str(concurrency), worker_id=worker_id)

    async def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        async with httpx.AsyncClient(timeout=2) as client:
            for process in self.processes:
                while process.url is not None:
                    if process.popen.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(f"{process.name} did not start\n{process.tail()}")
                    with contextlib.suppress(httpx.HTTPError):
                        if (await client.get(f"{process.url}/readyz")).status_code == 200:
                            break
                    await asyncio.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes:
            if process.popen.poll() is None:
                process.popen.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.popen.kill()
                process.popen.wait()

    def tails(self) -> str:
        return "\n".join(process.tail() for process in self.processes)


@contextlib.contextmanager
def fleet(env: Mapping[str, str], logs: Path) -> Iterator[Fleet]:
    running = Fleet({**os.environ, **env}, logs)
    try:
        yield running
    finally:
        running.stop()


BACKENDS = ["embedded", pytest.param("production", marks=[pytest.mark.postgres, pytest.mark.redis])]


@contextlib.asynccontextmanager
async def backend_env(backend: str, tmp_path: Path) -> AsyncIterator[dict[str, str]]:
    """The server's FEEDLOOM_* variables: its own data dir, and on "production" a fresh
    PostgreSQL schema and Redis prefix."""
    env = {
        "FEEDLOOM_DATA_DIR": str(tmp_path / "data"),
        "FEEDLOOM_PASSWORD_HASH_TIME_COST": "1",
        "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": "256",
        **lifted_rate_limit_env(),
    }
    if backend == "embedded":
        yield env
        return
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield {
            **env,
            "FEEDLOOM_DATABASE_URL": POSTGRES_URL,
            "FEEDLOOM_DATABASE_SCHEMA": schema,
            "FEEDLOOM_REDIS_URL": REDIS_URL,
            "FEEDLOOM_REDIS_PREFIX": prefix,
            "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        }
