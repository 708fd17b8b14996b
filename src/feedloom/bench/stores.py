"""A throwaway store per benchmark run, and the settings every process of the run shares.

- embedded: a fresh SQLite file in a temporary directory (caches and queue in-process);
- postgres: a fresh schema in the database of FEEDLOOM_DATABASE_URL, plus, when
  FEEDLOOM_REDIS_URL is set, Redis under a key prefix of its own;
- cluster: the same schema, and a 3-master Redis Cluster the bench starts for the run
  (bench/redis_cluster.py) instead of FEEDLOOM_REDIS_URL.

Everything is removed afterwards: the directory, the schema, exactly the prefix's keys.
The run is described by FEEDLOOM_* variables only, so the server subprocesses and the
bench's own in-process backend read identical settings.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from redis.asyncio import RedisCluster

from feedloom.adapters.redis.wire import open_client
from feedloom.bench.redis_cluster import ClusterUnavailable, local_cluster
from feedloom.bench.redis_probe import delete_prefix
from feedloom.bench.scratch import create_scratch_schema, drop_scratch_schema
from feedloom.settings import RateLimitSettings, Settings

StoreKind = Literal["embedded", "postgres", "cluster"]
PREFIX = "FEEDLOOM_"
# What selects the store: never inherited from the caller's environment.
STORE_VARIABLES = ("DATA_DIR", "DATABASE_URL", "DATABASE_SCHEMA", "REDIS_URL", "REDIS_PREFIX")
# Rate limits would cap the load, not measure the service (bench users sign up from
# one address, and are all younger than a day).
BENCH_DEFAULTS = {
    **{
        f"{PREFIX}RATE_LIMITS__{name.upper()}": "1000000/minute"
        for name in RateLimitSettings().rules()
    },
    f"{PREFIX}RATE_LIMITS__YOUNG_ACCOUNT_HOURS": "0",
}


class StoreUnavailable(RuntimeError):
    """The requested store cannot be set up (with the reason)."""


@dataclass(frozen=True)
class ScratchStore:
    kind: StoreKind
    env: dict[str, str]  # FEEDLOOM_* variables selecting this store
    work_dir: Path  # logs and the SQLite file

    @property
    def redis_url(self) -> str | None:
        return self.env.get("FEEDLOOM_REDIS_URL")

    @property
    def redis_prefix(self) -> str | None:
        return self.env.get("FEEDLOOM_REDIS_PREFIX")

    def run_env(self, overrides: Mapping[str, str]) -> dict[str, str]:
        """The caller's FEEDLOOM_* tuning, bench defaults, this store, then `overrides`."""
        inherited = {
            name: value
            for name, value in os.environ.items()
            if name.startswith(PREFIX) and name[len(PREFIX) :] not in STORE_VARIABLES
        }
        return {**BENCH_DEFAULTS, **inherited, **self.env, **overrides}


def settings_from_env(env: Mapping[str, str]) -> Settings:
    """Settings exactly as a process started with `env` (and no other FEEDLOOM_*) reads them."""
    with _environ_swapped(env):
        return Settings()


def child_environment(env: Mapping[str, str]) -> dict[str, str]:
    """os.environ without any FEEDLOOM_* variable, plus `env`: for subprocesses."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)}
    return {**base, **env}


@contextlib.asynccontextmanager
async def scratch_store(kind: StoreKind) -> AsyncIterator[ScratchStore]:
    work_dir = Path(tempfile.mkdtemp(prefix="feedloom-bench-"))
    try:
        if kind == "embedded":
            yield ScratchStore(kind, {"FEEDLOOM_DATA_DIR": str(work_dir / "data")}, work_dir)
        elif kind == "cluster":
            try:
                with local_cluster(work_dir / "cluster") as cluster_url:
                    async with _postgres_store(work_dir, cluster_url) as store:
                        yield store
            except ClusterUnavailable as error:
                raise StoreUnavailable(str(error)) from error
        else:
            async with _postgres_store(work_dir) as store:
                yield store
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)


@contextlib.asynccontextmanager
async def _postgres_store(
    work_dir: Path, cluster_url: str | None = None
) -> AsyncIterator[ScratchStore]:
    url = os.environ.get("FEEDLOOM_DATABASE_URL", "")
    if not url.startswith(("postgresql", "postgres:")):
        raise StoreUnavailable("--start postgres needs FEEDLOOM_DATABASE_URL=postgresql://...")
    run_id = uuid.uuid4().hex[:10]
    schema = f"bench_{run_id}"
    env = {
        "FEEDLOOM_DATABASE_URL": url,
        "FEEDLOOM_DATABASE_SCHEMA": schema,
        "FEEDLOOM_SECRET_KEY": secrets.token_hex(32),  # one run's processes share it
    }
    redis_url = cluster_url or os.environ.get("FEEDLOOM_REDIS_URL")
    if redis_url:
        env |= {"FEEDLOOM_REDIS_URL": redis_url, "FEEDLOOM_REDIS_PREFIX": f"fb{run_id}"}
    try:
        await create_scratch_schema(url, schema)
    except Exception as error:  # any driver or network error: one line, not a traceback
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise StoreUnavailable(f"cannot create schema {schema} at {url}: {reason}") from error
    try:
        yield ScratchStore("postgres", env, work_dir)
    finally:
        await drop_scratch_schema(url, schema)
        if redis_url and not cluster_url:  # the bench's own cluster is stopped whole
            await delete_prefix(redis_url, env["FEEDLOOM_REDIS_PREFIX"])


@contextlib.contextmanager
def _environ_swapped(env: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    try:
        for name in [n for n in os.environ if n.startswith(PREFIX)]:
            del os.environ[name]
        os.environ.update(env)
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


async def redis_cpu_seconds(settings: Settings) -> float | None:
    """Redis' own CPU time so far (INFO cpu, user + system, summed over a cluster's
    nodes), through a client of its own so the reads' connections are not touched;
    None on the embedded default."""
    if settings.redis_url is None:
        return None
    client = await open_client(settings.redis_url, settings.redis_cluster)
    try:
        if isinstance(client, RedisCluster):  # one reply per node, by node name
            per_node = await client.info("cpu", target_nodes=RedisCluster.PRIMARIES)
            nodes = list(per_node.values())
        else:
            nodes = [await client.info("cpu")]
    finally:
        await client.aclose()
    return sum(float(node["used_cpu_user"]) + float(node["used_cpu_sys"]) for node in nodes)
