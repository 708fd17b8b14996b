"""The benchmark's users: import the graph, and get every user a bearer token.

For a server the bench starts itself, the graph is imported in-process before the
server starts, tokens are minted straight into the store (a login per user would
spend the run hashing passwords), and optionally a few posts per user are stored so
feeds are not empty. For a server given by `--url`, users log in over HTTP with the
password they were imported with.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

import httpx

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.capacity.graph import Edge
from feedloom.demo import demo_text
from feedloom.domain.facets import parse_facets, resolve_mentions
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Counts, Post, Visibility
from feedloom.gather import bounded
from feedloom.settings import Settings
from feedloom.write.accounts import token_digest
from feedloom.write.import_graph import graph_accounts, username_for

CONCURRENCY = 16
VIEWS_PER_CALL = 1_000
# Worker bits of the bench's own process: IDs it mints never collide with the server's.
BENCH_WORKER_ID = 1021


@dataclass(frozen=True)
class BenchUsers:
    tokens: dict[str, str]  # CSV ID -> bearer token
    user_ids: dict[str, int]  # CSV ID -> user ID


async def prepare_users(
    settings: Settings, edges: Sequence[Edge], password: str, posts_per_user: int = 0
) -> BenchUsers:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        password_hash = await asyncio.to_thread(feedloom.password_hasher.hash, password)
        imported = await feedloom.services.graph_import.run(
            edges, password_hash, build_timelines=not settings.is_embedded
        )
        tokens = await mint_tokens(feedloom, imported.user_ids)
        await store_posts(feedloom, list(imported.user_ids.values()), posts_per_user)
        return BenchUsers(tokens, imported.user_ids)


async def mint_tokens(feedloom: Feedloom, user_ids: dict[str, int]) -> dict[str, str]:
    tokens = {csv_id: secrets.token_urlsafe(32) for csv_id in user_ids}
    now = feedloom.runtime.clock()
    create = feedloom.stores.tokens.create_token
    await bounded(
        [
            partial(create, token_digest(tokens[csv_id]), user_id, now)
            for csv_id, user_id in user_ids.items()
        ],
        CONCURRENCY,
    )
    return tokens


async def store_posts(
    feedloom: Feedloom, authors: list[int], per_author: int, tags: list[str] | None = None
) -> None:
    """History for the feeds, stored with their outbox events (the server fans them out).
    With `tags` (one per author), each post ends with its author's tag, parsed and
    recorded as a published post's are."""
    rng = random.Random(3)
    now = feedloom.runtime.clock()

    posts = []
    for index, author in enumerate(authors):
        for _ in range(per_author):
            post_id = feedloom.runtime.ids.next_id()
            text = demo_text(rng)
            if tags is not None:
                text = f"{text} #{tags[index]}"
            facets = tuple(resolve_mentions(parse_facets(text), {}))
            post = Post(post_id, author, text, Visibility.PUBLIC, created_at_of(post_id))
            posts.append(replace(post, facets=facets))
    await bounded(
        [partial(feedloom.stores.posts.create_post, post, None, "", now) for post in posts],
        CONCURRENCY,
    )
    await _show_to_authors(feedloom, posts)


async def _show_to_authors(feedloom: Feedloom, posts: list[Post]) -> None:
    """Cache each post's view and zero counts, as publishing does (write/publish_post.py
    `_show_to_author`): without it the worker's content check would read every post
    from the store, a query per batch that fan-out after a real publish does not pay."""
    caches = feedloom.caches
    for start in range(0, len(posts), VIEWS_PER_CALL):
        chunk = posts[start : start + VIEWS_PER_CALL]
        await caches.post_cache.set_many({post.id: post for post in chunk})
        await caches.counters.set_many({post.id: Counts() for post in chunk})


async def log_in(client: httpx.AsyncClient, edges: Sequence[Edge], password: str) -> dict[str, str]:
    """Tokens for every account of the graph on a running server (POST /v1/sessions)."""

    async def one(csv_id: str) -> tuple[str, str]:
        response = await client.post(
            "/v1/sessions", json={"username": username_for(csv_id), "password": password}
        )
        if response.status_code != 201:
            raise RuntimeError(
                f"cannot log in as {username_for(csv_id)}: {response.status_code} "
                f"{response.text[:200]} (import the graph with this --password first)"
            )
        return csv_id, str(response.json()["token"])

    accounts = graph_accounts(edges)
    return dict(await bounded([partial(one, csv_id) for csv_id in accounts], CONCURRENCY))
