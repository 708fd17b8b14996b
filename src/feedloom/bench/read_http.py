"""`feedloom bench read --http`: the same readers over HTTP, against a server it starts.

One server process (the API with its inline worker) on a fresh store, the peers'
workload imported and every user's one post fanned out; then `concurrency` keep-alive
connections read the sampled readers' first pages (GET /v1/feed?limit=20) as fast as
the server answers, for `rounds` rounds, through a lean client (bench/http_load.py) so
that the client takes as little as it can of the CPU the server shares. Each page is
checked against the expected newest 20 after the timed loop. Reads/s is the
closed-loop throughput; p50/p99 are per request. Then as many rounds again, paced at
half the closed-loop rate (the median warm round's), each request timed from when it
was due (bench/http_load.py `paced`): the latency a server at half load gives.

`surface="mastodon"` adds the Mastodon-compatible home timeline
(GET /api/v1/timelines/home?limit=20, the same HomeFeed) in the same sitting: each
round reads through /v1 and then through it, so both see the same server, caches and
machine load, and the report gives their ratio (issue 36 holds it within 1.2x).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import orjson

from feedloom.bench.http_load import LeanConnection, Load, closed_loop, paced
from feedloom.bench.probe import wait_drained
from feedloom.bench.read import PAGE, Round, headline
from feedloom.bench.stores import StoreKind
from feedloom.bench.target import http_client, started_target
from feedloom.bench.workload import Workload, sample_readers

DRAIN_TIMEOUT_S = 900.0
PACED_SHARE = 0.5  # the paced rounds run at this share of the closed-loop reads/s


@dataclass
class HttpReadBench:
    fingerprint: str
    store: str
    concurrency: int
    rounds: list[Round] = field(default_factory=list)
    paced: list[Round] = field(default_factory=list)
    paced_rate: float = 0.0
    mismatches: int = 0
    errors: int = 0
    mastodon: list[Round] = field(default_factory=list)  # surface="mastodon" only


async def run_http_read_bench(
    kind: StoreKind,
    workload: Workload,
    readers: int,
    rounds: int,
    concurrency: int,
    surface: str = "v1",
) -> HttpReadBench:
    edges = workload.edges
    async with started_target(kind, {}, edges, posts_per_user=1) as target:
        result = HttpReadBench(workload.fingerprint(), target.description, concurrency)
        async with http_client(target.url, concurrency) as client:
            if await wait_drained(client, DRAIN_TIMEOUT_S) is None:
                raise RuntimeError("the server did not finish fanning out the posts")
        sampled = [str(u) for u in sample_readers(workload.users, readers)]
        expected = _expected(workload, target.user_ids, sampled)
        async with _connections(target.url, concurrency) as connections:
            requests = [_request(connections[0], target.tokens[r]) for r in sampled]
            home = [_request(connections[0], target.tokens[r], MASTODON) for r in sampled]
            for _ in range(rounds):
                load = await closed_loop(connections, requests)
                result.rounds.append(_checked(result, load, sampled, expected))
                if surface == "mastodon":
                    load = await closed_loop(connections, home)
                    result.mastodon.append(_checked(result, load, sampled, expected))
            warm = result.rounds[1:] or result.rounds
            result.paced_rate = PACED_SHARE * headline(warm)["reads_per_s"]
            for _ in range(rounds):
                load = await paced(connections, requests, result.paced_rate)
                result.paced.append(_checked(result, load, sampled, expected))
        return result


@contextlib.asynccontextmanager
async def _connections(url: str, concurrency: int) -> AsyncIterator[list[LeanConnection]]:
    connections = [LeanConnection(url) for _ in range(concurrency)]
    async with contextlib.AsyncExitStack() as stack:
        for connection in connections:
            await stack.enter_async_context(connection)
        yield connections


V1 = f"/v1/feed?limit={PAGE}"
MASTODON = f"/api/v1/timelines/home?limit={PAGE}"


def _request(connection: LeanConnection, token: str, path: str = V1) -> bytes:
    return connection.get_request(path, {"Authorization": f"Bearer {token}"})


def _checked(
    result: HttpReadBench, load: Load, readers: list[str], expected: dict[str, list[str]]
) -> Round:
    """The round's figures; its pages are checked after the timed loop."""
    pages = [_authors(*reply) for reply in load.replies]
    result.errors += sum(page is None for page in pages)
    result.mismatches += sum(page != expected[r] for r, page in zip(readers, pages, strict=True))
    return Round(load.latencies_s, load.wall_s)


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


def _authors(status: int, body: bytes) -> list[str] | None:
    """A page's authors, from /v1's `items` or the Mastodon surface's statuses."""
    if status != 200:
        return None
    page = orjson.loads(body)
    if isinstance(page, list):
        return [status["account"]["id"] for status in page]
    return [item["author"]["id"] for item in page["items"]]


def render_http_read(bench: HttpReadBench) -> str:
    head = headline(bench.rounds)
    per_round = ", ".join(f"{s['reads_per_s']:,.0f}" for s in (r.summary() for r in bench.rounds))
    lines = [
        f"graph {bench.fingerprint}, store {bench.store}, one server process, "
        f"c = {bench.concurrency}, mismatches {bench.mismatches}, errors {bench.errors}",
        "",
        "| over HTTP | reads/s | p50 | p99 |",
        "|---|---:|---:|---:|",
        f"| GET /v1/feed?limit=20, closed loop | {head['reads_per_s']:,.0f} | "
        f"{head['p50_ms']:.2f} ms | {head['p99_ms']:.2f} ms |",
    ]
    if bench.mastodon:
        other = headline(bench.mastodon)
        lines.append(
            f"| GET {MASTODON}, closed loop, same sitting | {other['reads_per_s']:,.0f} | "
            f"{other['p50_ms']:.2f} ms | {other['p99_ms']:.2f} ms |"
        )
        ratio = head["reads_per_s"] / other["reads_per_s"] if other["reads_per_s"] else 0.0
        per_round += f"; /v1 reads/s over the Mastodon surface's: {ratio:.2f}x"
    if bench.paced:
        paced = sorted((r.summary() for r in bench.paced), key=lambda s: s["p99_ms"])
        middle = paced[len(paced) // 2]
        lines.append(
            f"| paced at {PACED_SHARE:.0%} of that ({bench.paced_rate:,.0f}/s due) | "
            f"{middle['reads_per_s']:,.0f} | {middle['p50_ms']:.2f} ms | "
            f"{middle['p99_ms']:.2f} ms |"
        )
        per_round += "; paced p99 ms per round: " + ", ".join(
            f"{r.summary()['p99_ms']:.2f}" for r in bench.paced
        )
    return "\n".join([*lines, "", f"reads/s per round: {per_round}"])
