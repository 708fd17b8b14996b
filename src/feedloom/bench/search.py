"""`feedloom bench search`: full-text search at scale, and what the index costs posting.

1. History: `posts` posts by `authors` accounts, written in batches through the bulk
   importer (the database keeps the search index as it goes: migration 0022). Their
   words come from a fixed vocabulary drawn with a Zipf law (a few words in most
   posts, most words in few), seeded, so two sittings search the same text; every
   twentieth post is Bengali or French.
2. Search: `queries` searches of one word and as many of two, of words of middling
   frequency, through the whole read path (`SearchPosts`: index, read-time filter,
   hydration), by a reader who follows a few authors: p50, p99 per kind.
3. Posting: `writes` posts published through `PublishPost` one after another, with the
   index, then (`compare_without_index`) the same again after dropping it from this
   scratch store: the ratio is what the index costs the write path.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from feedloom.adapters.sql.database import create_database
from feedloom.adapters.sql.search import drop_post_search_index
from feedloom.bench.hdr import LatencyHistogram
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Post, Visibility
from feedloom.domain.search import SearchOrder
from feedloom.ports import NewUser
from feedloom.settings import Settings

VOCABULARY = 20_000
WORDS_PER_POST = (6, 18)
BATCH = 5_000
FOLLOWED = 20
OTHER_LANGUAGES = (
    "রাজশাহী শহরে আমের মেলা বসেছে আজ",
    "Un café crème à Besançon, près de la gare",
)
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fa", "gu")


def vocabulary(size: int) -> list[str]:
    """Distinct pseudo-words, rank 0 the most common (deterministic)."""
    words = []
    for rank in range(size):
        n, parts = rank, []
        while True:
            parts.append(SYLLABLES[n % len(SYLLABLES)])
            n //= len(SYLLABLES)
            if not n:
                break
        words.append("".join(parts) + ("n" if rank % 3 else ""))
    return words


@dataclass
class SearchBench:
    posts: int
    authors: int
    one_word: LatencyHistogram = field(default_factory=LatencyHistogram)
    two_words: LatencyHistogram = field(default_factory=LatencyHistogram)
    found: int = 0
    load_s: float = 0.0
    posts_per_s: float = 0.0
    posts_per_s_without_index: float | None = None

    def figures(self) -> dict[str, Any]:
        ratio = (
            self.posts_per_s_without_index / self.posts_per_s
            if self.posts_per_s_without_index and self.posts_per_s
            else None
        )
        return {
            "posts": self.posts,
            "authors": self.authors,
            "load_s": round(self.load_s, 1),
            "one_word": self.one_word.summary(),
            "two_words": self.two_words.summary(),
            "found_per_query": self.found / max(1, self.one_word.count + self.two_words.count),
            "posts_per_s": round(self.posts_per_s, 1),
            "posts_per_s_without_index": self.posts_per_s_without_index,
            "write_cost_ratio": round(ratio, 3) if ratio else None,
        }


async def run_search_bench(
    settings: Settings,
    posts: int,
    authors: int,
    queries: int,
    writes: int,
    seed: int,
    compare_without_index: bool,
) -> SearchBench:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    rng, words = random.Random(seed), vocabulary(VOCABULARY)
    bench = SearchBench(posts, authors)
    async with open_feedloom(settings) as feedloom:
        author_ids = await _authors(feedloom, authors)
        started = time.perf_counter()
        await _history(feedloom, author_ids, posts, words, rng)
        bench.load_s = time.perf_counter() - started
        reader = author_ids[0]
        for followee in author_ids[1 : FOLLOWED + 1]:
            await feedloom.services.relations.follow(reader, followee)
        await _searches(feedloom, bench, reader, words, queries, rng)
        bench.posts_per_s = await _post_rate(feedloom, author_ids, writes, words, rng)
        if compare_without_index:
            engine = create_database(settings.effective_database_url, settings.database_schema)
            try:
                await drop_post_search_index(engine)
            finally:
                await engine.dispose()
            bench.posts_per_s_without_index = await _post_rate(
                feedloom, author_ids, writes, words, rng
            )
    return bench


async def _authors(feedloom: Feedloom, count: int) -> list[int]:
    ids = [feedloom.runtime.ids.next_id() for _ in range(count)]
    new = [NewUser(i, f"writer_{n}", f"Writer {n}", "bench: no sign-in") for n, i in enumerate(ids)]
    await feedloom.stores.bulk.load(new, [], feedloom.runtime.clock(), lambda _: False)
    return ids


def _text(words: list[str], rng: random.Random, n: int) -> str:
    if n % 20 == 19:
        return OTHER_LANGUAGES[n % len(OTHER_LANGUAGES)]
    count = rng.randint(*WORDS_PER_POST)
    # Zipf-like: rank r is drawn with weight 1/(r+1), by inverse transform on a
    # log-uniform variate (cheap, and close enough for a benchmark's text).
    picks = (int(len(words) ** rng.random()) - 1 for _ in range(count))
    return " ".join(words[rank] for rank in picks)


async def _history(
    feedloom: Feedloom, authors: list[int], count: int, words: list[str], rng: random.Random
) -> None:
    now, ids = feedloom.runtime.clock(), feedloom.runtime.ids
    for start in range(0, count, BATCH):
        batch = []
        for n in range(start, min(count, start + BATCH)):
            post_id = ids.next_id()
            visibility = Visibility.FOLLOWERS if n % 10 == 0 else Visibility.PUBLIC
            batch.append(
                Post(
                    post_id,
                    authors[n % len(authors)],
                    _text(words, rng, n),
                    visibility,
                    created_at_of(post_id),
                )
            )
        await feedloom.stores.bulk.load_history(batch, [], [], now)


async def _searches(
    feedloom: Feedloom,
    bench: SearchBench,
    reader: int,
    words: list[str],
    queries: int,
    rng: random.Random,
) -> None:
    search = feedloom.services.search_posts
    middling = words[50:2_000]  # neither in every post nor in none
    for n in range(queries * 2):
        two = n % 2 == 1
        query = " ".join(rng.sample(middling, 2 if two else 1))
        started = time.perf_counter()
        found = await search(reader, query, SearchOrder.NEWEST, 20, None)
        (bench.two_words if two else bench.one_word).record(time.perf_counter() - started)
        bench.found += len(found.items)


async def _post_rate(
    feedloom: Feedloom, authors: list[int], count: int, words: list[str], rng: random.Random
) -> float:
    publish = feedloom.services.publish
    started = time.perf_counter()
    for n in range(count):
        await publish(authors[n % len(authors)], _text(words, rng, n), [], Visibility.PUBLIC, None)
    return count / (time.perf_counter() - started)


def render_search(bench: SearchBench, store: str) -> str:
    figures = bench.figures()
    lines = [
        f"## bench search on {store}: {bench.posts:,} posts by {bench.authors:,} authors",
        "",
        f"History loaded in {figures['load_s']} s (index kept by the database as it went).",
        "",
        "| query | searches | p50 ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, histogram in (("one word", bench.one_word), ("two words", bench.two_words)):
        summary = histogram.summary()
        lines.append(
            f"| {name} | {summary['count']} | {_ms(summary['p50_ms'])} | "
            f"{_ms(summary['p99_ms'])} | {_ms(summary['max_ms'])} |"
        )
    lines += ["", f"Posts found per search (page of 20): {figures['found_per_query']:.1f}."]
    lines.append(f"Post rate with the index: {figures['posts_per_s']} posts/s.")
    if bench.posts_per_s_without_index is not None:
        lines.append(
            f"Without it: {bench.posts_per_s_without_index:.1f} posts/s "
            f"(the index costs {figures['write_cost_ratio']}x)."
        )
    return "\n".join(lines)


def _ms(value: float | int | None) -> str:
    return "-" if value is None else f"{value:.2f}"
