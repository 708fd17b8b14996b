"""`feedloom bench import --http`: bulk import over HTTP through an app's key, beside the
CLI importer, in one sitting (issue 37: ≥ 10,000 users/s and ≥ 50,000 follow rows/s on
PostgreSQL with one client).

One server process on a fresh store and an app with `users:write` and `graph:write`
made through the use case, as `feedloom apps create` makes it; then ONE client sends the
generated graph's users (POST /v1/apps/users:batch) and then its follows
(POST /v1/apps/follows:batch), `batch` NDJSON rows a request, one request at a time,
every row's result checked. Then `feedloom import-graph`'s importer (write/import_graph.py,
one transaction, the timelines built where they outlive the process) loads the same graph
into a second fresh store of the same kind, in process; its rows are users plus follows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass

import httpx
import orjson

from feedloom.bench.server import running_server
from feedloom.bench.stores import StoreKind, scratch_store, settings_from_env
from feedloom.bench.target import REQUEST_TIMEOUT_S
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import open_feedloom
from feedloom.capacity.graph import Edge
from feedloom.domain.apps import parse_scopes
from feedloom.settings import Settings
from feedloom.write.import_graph import graph_accounts, username_for

SCOPES = "users:write,graph:write"
CLI_PASSWORD = "bench-password"


@dataclass(frozen=True)
class Phase:
    rows: int
    seconds: float
    failed: int

    @property
    def per_s(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class ImportBench:
    store: str
    batch: int
    cli: Phase  # users + follows, the CLI importer
    users: Phase | None = None  # over HTTP (None: the CLI importer alone)
    follows: Phase | None = None


async def run_import_bench(
    kind: StoreKind, edges: Sequence[Edge], batch: int, http: bool = True
) -> ImportBench:
    cli = await _cli_bench(kind, edges)
    if not http:
        return ImportBench(kind, batch, cli)
    accounts = graph_accounts(edges)
    users = [
        {"external_id": csv_id, "username": username_for(csv_id), "display_name": f"User {csv_id}"}
        for csv_id in accounts
    ]
    follows = [{"follower": a, "followee": b, "op": "follow"} for a, b in edges]
    async with scratch_store(kind) as store:
        env = store.run_env({})
        key = await _app_key(settings_from_env(env))
        description = kind + ("+redis" if settings_from_env(env).redis_url else "")
        async with (
            running_server(env, store.work_dir / "logs") as server,
            httpx.AsyncClient(
                base_url=server.url,
                timeout=REQUEST_TIMEOUT_S,
                headers={"Authorization": f"Bearer {key}"},
            ) as client,
        ):
            user_phase = await _send(client, "/v1/apps/users:batch", users, batch)
            follow_phase = await _send(client, "/v1/apps/follows:batch", follows, batch)
    return ImportBench(description, batch, cli, user_phase, follow_phase)


async def _cli_bench(kind: StoreKind, edges: Sequence[Edge]) -> Phase:
    async with scratch_store(kind) as store:
        return await _cli_import(settings_from_env(store.run_env({})), edges)


async def _app_key(settings: Settings) -> str:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        made = await feedloom.services.apps.admin.create("bench", parse_scopes(SCOPES))
        return made.api_key


async def _send(
    client: httpx.AsyncClient, path: str, rows: list[dict[str, str]], batch: int
) -> Phase:
    """Every row, `batch` a request, one request at a time; the bodies are encoded
    before the clock starts (what a client prepares is not the server's time)."""
    bodies = [
        b"\n".join(orjson.dumps(row) for row in rows[start : start + batch])
        for start in range(0, len(rows), batch)
    ]
    headers = {"Content-Type": "application/x-ndjson"}
    failed = 0
    started = time.perf_counter()
    for body in bodies:
        response = await client.post(path, content=body, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"{path}: {response.status_code} {response.text[:300]}")
        failed += int(response.json()["failed"])
    return Phase(len(rows), time.perf_counter() - started, failed)


async def _cli_import(settings: Settings, edges: Sequence[Edge]) -> Phase:
    """`feedloom import-graph`'s run, timed from the first write to the last timeline
    (the password's one hash is left out: it is not per row)."""
    async with open_feedloom(settings) as feedloom:
        password_hash = await asyncio.to_thread(feedloom.password_hasher.hash, CLI_PASSWORD)
        started = time.perf_counter()
        result = await feedloom.services.graph_import.run(
            list(edges), password_hash, build_timelines=not settings.is_embedded
        )
        seconds = time.perf_counter() - started
    return Phase(result.users + result.edges, seconds, 0)


def render_import(bench: ImportBench) -> str:
    header = ["| import | rows | seconds | rows/s |", "|---|---:|---:|---:|"]
    cli = "CLI importer (import-graph), users + follows"
    if bench.users is None or bench.follows is None:
        return "\n".join([f"store {bench.store}", "", *header, _row(cli, bench.cli)])
    users, follows = bench.users, bench.follows
    http = Phase(
        users.rows + follows.rows, users.seconds + follows.seconds, users.failed + follows.failed
    )
    ratio = http.per_s / bench.cli.per_s if bench.cli.per_s else 0.0
    lines = [
        f"store {bench.store}, one client, {bench.batch:,} NDJSON rows a request, "
        f"failed rows {http.failed}",
        "",
        *header,
        _row("users over HTTP (POST /v1/apps/users:batch)", users),
        _row("follows over HTTP (POST /v1/apps/follows:batch)", follows),
        _row("users + follows over HTTP", http),
        _row(f"{cli}, same sitting", bench.cli),
        "",
        f"over HTTP / CLI importer, rows/s: {ratio:.2f}x",
    ]
    return "\n".join(lines)


def _row(name: str, phase: Phase) -> str:
    return f"| {name} | {phase.rows:,} | {phase.seconds:.2f} | {phase.per_s:,.0f} |"
