"""What a benchmark run talks to: a server it started on a throwaway store, or one
already running on this machine (`--url`, loopback only)."""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from feedloom.bench.server import RunningServer, running_server
from feedloom.bench.stores import ScratchStore, StoreKind, scratch_store, settings_from_env
from feedloom.bench.users import log_in, prepare_users
from feedloom.capacity.graph import Edge

BENCH_PASSWORD = "bench-password"
REQUEST_TIMEOUT_S = 60.0
CLIENT_KEEP_ALIVE_S = 3.0  # below the server's idle timeout (http_client)


class NotLoopback(ValueError):
    """The bench only ever sends load to this machine."""


@dataclass(frozen=True)
class Target:
    url: str
    tokens: dict[str, str]  # CSV ID -> bearer token
    user_ids: dict[str, int]  # CSV ID -> user ID ({} for --url)
    description: str  # "embedded", "postgres", "postgres+redis", or the URL
    store: ScratchStore | None = None
    server: RunningServer | None = None


def check_loopback(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if parts.scheme not in ("http", "https") or not loopback:
        raise NotLoopback(f"{url!r}: only http://127.0.0.1:PORT (or localhost) targets are allowed")
    return url.rstrip("/")


def http_client(url: str, concurrency: int) -> httpx.AsyncClient:
    # Keep-alive connections, one per loop: connection setup is not what we measure. They
    # are let go before the server's idle timeout (FEEDLOOM_HTTP__KEEP_ALIVE_S, 5 s), as a
    # proxy's must be (docs/PRODUCTION.md): at equal timeouts a request sent as the server
    # closes the connection fails (a 30-minute soak saw 17 such ReadErrors).
    limits = httpx.Limits(
        max_connections=concurrency,
        max_keepalive_connections=concurrency,
        keepalive_expiry=CLIENT_KEEP_ALIVE_S,
    )
    return httpx.AsyncClient(base_url=url, limits=limits, timeout=REQUEST_TIMEOUT_S)


@contextlib.asynccontextmanager
async def started_target(
    kind: StoreKind, overrides: Mapping[str, str], edges: Sequence[Edge], posts_per_user: int = 0
) -> AsyncIterator[Target]:
    """Fresh store, the graph imported, tokens minted, a server running on it."""
    async with scratch_store(kind) as store:
        env = store.run_env(overrides)
        settings = settings_from_env(env)
        users = await prepare_users(settings, edges, BENCH_PASSWORD, posts_per_user)
        description = kind + ("+redis" if settings.redis_url else "")
        async with running_server(env, store.work_dir / "logs") as server:
            yield Target(server.url, users.tokens, users.user_ids, description, store, server)


@contextlib.asynccontextmanager
async def open_target(
    kind: StoreKind,
    url: str | None,
    password: str | None,
    edges: Sequence[Edge],
    overrides: Mapping[str, str],
    posts_per_user: int = 0,
) -> AsyncIterator[Target]:
    """The server at `url` if one is given, else one started on a fresh `kind` store."""
    if url is None:
        async with started_target(kind, overrides, edges, posts_per_user) as target:
            yield target
        return
    yield await url_target(url, edges, password or "")


async def url_target(url: str, edges: Sequence[Edge], password: str) -> Target:
    """A running server the graph was imported into (`feedloom import-graph --password`)."""
    async with http_client(url, 16) as client:
        tokens = await log_in(client, edges, password)
    return Target(url, tokens, {}, url)
