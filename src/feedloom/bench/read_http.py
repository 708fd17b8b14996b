"""`feedloom bench read --http`: the same readers over HTTP, against a server it starts.

One server process (the API with its inline worker) on a fresh store, the peers'
workload imported and every user's one post fanned out; then `concurrency` keep-alive
connections read the sampled readers' first pages (GET /v1/feed?limit=20) as fast as
the server answers, for `rounds` rounds, through a lean client (bench/http_load.py) so
that the client takes as little as it can of the CPU the server shares. Each page is
checked against the expected newest 20 after the timed loop. Reads/s is the
closed-loop throughput; p50/p99 are per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

import orjson

from feedloom.bench.http_load import LeanConnection
from feedloom.bench.probe import wait_drained
from feedloom.bench.read import PAGE, Round
from feedloom.bench.stores import StoreKind
from feedloom.bench.target import http_client, started_target
from feedloom.bench.workload import Workload, sample_readers

DRAIN_TIMEOUT_S = 900.0


@dataclass
class HttpReadBench:
    fingerprint: str
    store: str
    concurrency: int
    rounds: list[Round] = field(default_factory=list)
    mismatches: int = 0
    errors: int = 0


async def run_http_read_bench(
    kind: StoreKind, workload: Workload, readers: int, rounds: int, concurrency: int
) -> HttpReadBench:
    edges = workload.edges
    async with started_target(kind, {}, edges, posts_per_user=1) as target:
        result = HttpReadBench(workload.fingerprint(), target.description, concurrency)
        async with http_client(target.url, concurrency) as client:
            if await wait_drained(client, DRAIN_TIMEOUT_S) is None:
                raise RuntimeError("the server did not finish fanning out the posts")
            sampled = [str(u) for u in sample_readers(workload.users, readers)]
            expected = _expected(workload, target.user_ids, sampled)
            for _ in range(rounds):
                measured, pages = await _round(target.url, target.tokens, sampled, concurrency)
                result.rounds.append(measured)
                result.errors += sum(page is None for page in pages.values())
                result.mismatches += sum(pages[u] != expected[u] for u in sampled)
        return result


def _expected(
    workload: Workload, user_ids: dict[str, int], readers: list[str]
) -> dict[str, list[str]]:
    """The authors of each reader's expected first page: every user posted once, in the
    order of `user_ids` (bench/users.py mints the posts in that order), so the newest 20
    posts of the followees and self are those of the 20 latest authors among them."""
    rank = {int(csv_id): n for n, csv_id in enumerate(user_ids)}
    return {
        r: [
            str(user_ids[str(a)])
            for a in sorted({*workload.followees[int(r)], int(r)}, key=rank.__getitem__)[::-1][
                :PAGE
            ]
        ]
        for r in readers
    }


async def _round(
    url: str, tokens: dict[str, str], readers: list[str], concurrency: int
) -> tuple[Round, dict[str, list[str] | None]]:
    """One timed pass over the readers by `concurrency` kept-alive connections; the
    requests are built and the pages decoded outside the timed loop (bench/http_load.py)."""
    connections = [LeanConnection(url) for _ in range(concurrency)]
    async with contextlib.AsyncExitStack() as stack:
        for connection in connections:
            await stack.enter_async_context(connection)
        requests = {
            reader: connections[0].get_request(
                f"/v1/feed?limit={PAGE}", {"Authorization": f"Bearer {tokens[reader]}"}
            )
            for reader in readers
        }
        queue: asyncio.Queue[str] = asyncio.Queue()
        for reader in readers:
            queue.put_nowait(reader)
        latencies: list[float] = []
        replies: dict[str, tuple[int, bytes]] = {}

        async def client_loop(connection: LeanConnection) -> None:
            while not queue.empty():
                reader = queue.get_nowait()
                started = time.perf_counter()
                replies[reader] = await connection.send(requests[reader])
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(client_loop(connection) for connection in connections))
        elapsed = time.perf_counter() - started
    return Round(latencies, elapsed), {reader: _authors(*replies[reader]) for reader in readers}


def _authors(status: int, body: bytes) -> list[str] | None:
    if status != 200:
        return None
    return [item["author"]["id"] for item in orjson.loads(body)["items"]]


def render_http_read(bench: HttpReadBench) -> str:
    summaries = sorted((r.summary() for r in bench.rounds), key=lambda s: s["reads_per_s"])
    head = summaries[len(summaries) // 2]
    per_round = ", ".join(f"{s['reads_per_s']:,.0f}" for s in (r.summary() for r in bench.rounds))
    return "\n".join(
        [
            f"graph {bench.fingerprint}, store {bench.store}, one server process, "
            f"c = {bench.concurrency}, mismatches {bench.mismatches}, errors {bench.errors}",
            "",
            "| over HTTP | reads/s | p50 | p99 |",
            "|---|---:|---:|---:|",
            f"| GET /v1/feed?limit=20 | {head['reads_per_s']:,.0f} | {head['p50_ms']:.2f} ms | "
            f"{head['p99_ms']:.2f} ms |",
            "",
            f"reads/s per round: {per_round}",
        ]
    )
