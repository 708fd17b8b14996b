"""An S3-compatible server for the media tests: moto's standalone server, started by
the test run itself on a free port (nothing downloaded, nothing to skip: in CI too),
a fresh bucket per test, and settings that point the service at it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from aiobotocore.session import get_session
from pydantic import SecretStr

from feedloom.adapters.s3.config import S3Config
from feedloom.settings import MediaSettings, Settings
from tests.integration.processes import free_port

READY_TIMEOUT_S = 30.0
# moto accepts any credentials; real ones are never needed nor used here.
ACCESS_KEY, SECRET_KEY = "feedloom-test", "feedloom-test-secret"


@dataclass(frozen=True)
class S3Server:
    endpoint_url: str


@contextlib.contextmanager
def s3_server(log: Path) -> Iterator[S3Server]:
    """`python -m moto.server` on a free loopback port, stopped on exit. A port taken
    between choosing and binding it is retried with another."""
    for _ in range(3):
        port = free_port()
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        endpoint = f"http://127.0.0.1:{port}"
        try:
            if _answers(endpoint, process):
                yield S3Server(endpoint)
                return
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    raise RuntimeError(f"moto's S3 server did not start: {log.read_text()[-2000:]}")


def _answers(endpoint: str, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False  # exited: most likely the port was taken
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(f"{endpoint}/moto-api/", timeout=1.0)
            return True
        time.sleep(0.1)
    return False


@contextlib.asynccontextmanager
async def new_bucket(server: S3Server) -> AsyncIterator[S3Config]:
    """A bucket of its own for one test (the server outlives it)."""
    config = S3Config(
        bucket=f"feedloom-{uuid.uuid4().hex[:16]}",
        endpoint_url=server.endpoint_url,
        access_key_id=ACCESS_KEY,
        secret_access_key=SECRET_KEY,
        path_style=True,
    )
    async with get_session().create_client(
        "s3",
        region_name=config.region,
        endpoint_url=server.endpoint_url,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
    ) as client:
        await client.create_bucket(Bucket=config.bucket)
        yield config


def with_bucket(settings: Settings, config: S3Config, **media: object) -> Settings:
    """`settings` storing media in the bucket (FEEDLOOM_MEDIA__STORE=s3)."""
    chosen = MediaSettings(
        store="s3",
        s3_bucket=config.bucket,
        s3_endpoint_url=config.endpoint_url,
        s3_access_key_id=SecretStr(ACCESS_KEY),
        s3_secret_access_key=SecretStr(SECRET_KEY),
        s3_path_style=True,
        **media,
    )
    return settings.model_copy(update={"media": chosen})


def bucket_variables(config: S3Config) -> dict[str, str]:
    """The same, as the environment of a `feedloom` process."""
    return {
        "FEEDLOOM_MEDIA__STORE": "s3",
        "FEEDLOOM_MEDIA__S3_BUCKET": config.bucket,
        "FEEDLOOM_MEDIA__S3_ENDPOINT_URL": str(config.endpoint_url),
        "FEEDLOOM_MEDIA__S3_ACCESS_KEY_ID": ACCESS_KEY,
        "FEEDLOOM_MEDIA__S3_SECRET_ACCESS_KEY": SECRET_KEY,
        "FEEDLOOM_MEDIA__S3_PATH_STYLE": "true",
    }
