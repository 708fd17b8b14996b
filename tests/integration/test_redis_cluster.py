"""Timelines, caches, the event log and the API's core scenarios on a real Redis Cluster.

The test starts its own 3-master cluster on free local ports (redis-server processes,
then `redis-cli --cluster create`) and stops it afterwards. It runs the cache contract
suites and the API's core feed scenarios unchanged against it, plus the one invariant
only a cluster has: a fan-out batch spread over many slots on every node.
"""

from __future__ import annotations

import functools
import inspect
import random
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis, RedisCluster

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.sketches import RedisViewerSketches
from feedloom.adapters.redis.timeline_store import RedisTimelineStore
from feedloom.adapters.redis.wire import ScriptRunner, open_client
from feedloom.adapters.redis.wire.multiplexed import MultiplexedConnection
from feedloom.api.app import create_app
from feedloom.bench.redis_cluster import cluster_ok, node_answers, start_node
from feedloom.bench.stores import redis_cpu_seconds
from feedloom.ports import RateRule
from feedloom.settings import Settings
from tests.api import (
    test_feed_basics,
    test_feed_promises,
    test_quotes,
    test_replies,
    test_reposts,
)
from tests.contract import (
    test_author_timeline_store,
    test_counter_store,
    test_event_queue,
    test_rate_limiter,
    test_session_store,
    test_sketches,
    test_timeline_store,
    test_view_cache,
)
from tests.contract.conftest import Caches
from tests.integration import test_redis_loss, test_viewer_sketches
from tests.lifespan import lifespan_of
from tests.servers import unavailable
from tests.world import World

pytestmark = [pytest.mark.slow, pytest.mark.redis]
MASTERS = 3


@dataclass(frozen=True)
class LocalCluster:
    ports: list[int]

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"


def scenarios(*modules: Any) -> list[Callable[..., Awaitable[None]]]:
    """The test functions of other suites that need only one fixture (a world or caches)."""
    found = []
    for module in modules:
        for name, function in vars(module).items():
            if name.startswith("test_") and len(inspect.signature(function).parameters) == 1:
                found.append(function)
    return found


CACHE_CONTRACTS = scenarios(
    test_timeline_store,
    test_author_timeline_store,
    test_view_cache,
    test_counter_store,
    test_session_store,
    test_rate_limiter,
    test_event_queue,
    test_sketches,
)
# Reposts travel by the reposter's size (pushed, bulk lane, pulled) like posts.
API_SCENARIOS = scenarios(
    test_feed_basics, test_feed_promises, test_redis_loss, test_replies, test_reposts, test_quotes
)
SKETCH_SCENARIOS = scenarios(test_viewer_sketches)  # each takes (client, keys)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    server = shutil.which("redis-server")
    if server is None:
        unavailable("redis-server", "not installed")
    cli = redis_cli()
    ports = free_ports(MASTERS)
    workdir = tmp_path_factory.mktemp("redis-cluster")
    log = (workdir / "servers.log").open("w")
    processes = [start_node(server, port, workdir, log) for port in ports]
    try:
        for port in ports:
            wait_for(functools.partial(node_answers, port), f"node {port} to start")
        nodes = [f"127.0.0.1:{port}" for port in ports]
        subprocess.run(
            [cli, "--cluster", "create", *nodes, "--cluster-replicas", "0", "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=30,
        )
        wait_for(lambda: all(cluster_ok(port) for port in ports), "cluster_state:ok")
        yield LocalCluster(ports)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


def redis_cli() -> str:
    cli = shutil.which("redis-cli")
    if cli is None:  # ./scripts/test installs it (scripts/_tools)
        unavailable("redis-cli", "not installed: apt-get install redis-tools")
    return cli


def free_ports(count: int) -> list[int]:
    """Ports free for a node and for its cluster bus (port + 10000)."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20_000, 30_000)
        if port not in ports and bindable(port) and bindable(port + 10_000):
            ports.append(port)
    return ports


def bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def node_name(client: RedisCluster, key: str) -> str:
    node = client.get_node_from_key(key)
    assert node is not None
    return str(node.name)


def recorded_writes(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """The commands of every write to a multiplexed connection from now on."""
    writes: list[list[Any]] = []
    execute = MultiplexedConnection.execute

    async def recorded(self: MultiplexedConnection, commands: Any) -> list[Any]:
        writes.append(list(commands))
        return await execute(self, commands)

    monkeypatch.setattr(MultiplexedConnection, "execute", recorded)
    return writes


def wait_for(check: Callable[[], bool], what: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
async def cluster_caches(cluster: LocalCluster) -> AsyncIterator[Caches]:
    client = await open_client(cluster.url)
    keys = RedisKeys(f"t{uuid.uuid4().hex[:8]}")
    caches = Caches("redis", client=client, keys=keys, url=cluster.url)
    try:
        yield caches
    finally:
        for close in caches.closers:
            await close()
        await client.aclose()


@pytest.fixture
async def cluster_world(cluster: LocalCluster, settings: Settings) -> AsyncIterator[World]:
    on_cluster = settings.model_copy(
        update={"redis_url": cluster.url, "redis_prefix": f"t{uuid.uuid4().hex[:8]}"}
    )
    app = create_app(on_cluster, inline_worker=False)
    async with lifespan_of(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield World(client, app.state.feedloom)


@pytest.mark.parametrize("contract", CACHE_CONTRACTS, ids=lambda f: f.__name__)
async def test_every_cache_contract_holds_on_a_cluster(
    contract: Callable[[Caches], Awaitable[None]], cluster_caches: Caches
) -> None:
    await contract(cluster_caches)


async def test_bench_read_sums_the_cpu_of_every_primary(
    cluster: LocalCluster, settings: Settings
) -> None:
    before = 0.0
    for port in cluster.ports:
        node = Redis(port=port)
        info = await node.info("cpu")
        before += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        await node.aclose()
    total = await redis_cpu_seconds(settings.model_copy(update={"redis_url": cluster.url}))
    assert total is not None and total >= before


@pytest.mark.parametrize("scenario", SKETCH_SCENARIOS, ids=lambda f: f.__name__)
async def test_viewers_counted_lately_are_not_added_again_on_a_cluster(
    scenario: Callable[[tuple[Any, RedisKeys]], Awaitable[None]], cluster_caches: Caches
) -> None:
    assert cluster_caches.client is not None and cluster_caches.keys is not None
    await scenario((cluster_caches.client, cluster_caches.keys))


async def test_a_page_served_is_one_write_per_node(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's posts' sketches live in many slots: each node's commands go in one
    write (adapters/redis/sketches.py), and a viewer served again is only counted."""
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    sketches = RedisViewerSketches(client, keys)
    posts = list(range(1, 31))
    assert len({node_name(client, keys.viewers(post)) for post in posts}) == MASTERS
    assert await sketches.served(7, [999]) == {999: 1}  # every node's connection is open
    writes = recorded_writes(monkeypatch)
    assert await sketches.served(7, posts) == dict.fromkeys(posts, 1)
    assert await sketches.served(8, posts) == dict.fromkeys(posts, 2)
    assert await sketches.served(7, posts) == dict.fromkeys(posts, 2)  # counted once
    monkeypatch.undo()
    # PFADD, EXPIRE and PFCOUNT for a viewer not counted lately, then PFCOUNT only.
    assert len(writes) == 3 * MASTERS
    assert sum(map(len, writes)) == 3 * len(posts) * 2 + len(posts)


@pytest.mark.parametrize("scenario", API_SCENARIOS, ids=lambda f: f.__name__)
async def test_the_core_feed_scenarios_pass_on_a_cluster(
    scenario: Callable[[World], Awaitable[None]], cluster_world: World
) -> None:
    await scenario(cluster_world)


async def test_a_fan_out_batch_over_many_slots_reaches_every_present_timeline_once(
    cluster_caches: Caches,
) -> None:
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    timelines = RedisTimelineStore(client, keys, length=5)
    users = list(range(1, 1_001))
    nodes = {node_name(client, keys.timeline(user)) for user in users}
    assert len(nodes) == MASTERS  # the batch really spans every node
    active = users[::2]
    for user in active:
        await timelines.replace(user, [10])
    assert await timelines.insert_if_present(users, 30) == len(active)
    assert await timelines.insert_if_present(users, 20) == len(active)  # late
    assert await timelines.insert_if_present(users, 30) == len(active)  # repeated
    reads = {user: await timelines.read(user, None, 10) for user in users[:50]}
    assert reads == {user: [30, 20, 10] if user in active else None for user in users[:50]}


async def test_a_fan_out_batch_of_pairs_is_one_script_call_per_node(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairs whose timelines live in many slots travel as one call per primary, not
    one per slot (scripts.py `call_per_node`), and every present timeline gets its ID
    once, in order, also when a late and a repeated pair follow."""
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    timelines = RedisTimelineStore(client, keys, length=5)
    users = list(range(1, 1_001))
    assert len({node_name(client, keys.timeline(user)) for user in users}) == MASTERS
    active = users[::2]
    for user in active:
        await timelines.replace(user, [10])
    assert await timelines.insert_many([(5, [2])]) == 0  # no timeline; the script is loaded
    writes = recorded_writes(monkeypatch)
    assert await timelines.insert_many([(30, users), (20, users)]) == 2 * len(active)
    assert await timelines.insert_many([(30, users)]) == len(active)
    monkeypatch.undo()
    assert len(writes) == 2 * MASTERS
    assert all([command[0] for command in write] == ["EVALSHA"] for write in writes)
    reads = {user: await timelines.read(user, None, 10) for user in users[:50]}
    assert reads == {user: [30, 20, 10] if user in active else None for user in users[:50]}


async def test_a_batch_of_rate_limit_hits_is_one_write_per_node(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The content check charges a whole batch of windows at once; on a cluster each
    node's hits go in one write, in order (adapters/redis/rate_limiter.py)."""
    limiter = cluster_caches.rate_limiter()
    two = RateRule("posts", 2, 3_600)
    batch = [(two, str(key)) for key in range(60) for _ in range(3)]
    await limiter.hit_many([(two, "warm-up"), (two, "warm-up")])  # the script is loaded
    writes = recorded_writes(monkeypatch)
    assert await limiter.hit_many(batch) == [True, True, False] * 60
    monkeypatch.undo()
    assert len(writes) == MASTERS and sum(map(len, writes)) == len(batch)
    assert not (await limiter.hit(two, "7")).allowed


async def test_a_pipeline_of_one_key_commands_is_one_write_per_node(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Caches' pipelines (views, counters, likes) go straight to the nodes over their
    multiplexed connections (adapters/redis/client.py), replies shaped as redis-py
    shapes them; one with a reply option runs as redis-py's own pipeline."""
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    names = [keys.view("post", post) for post in range(40)]
    assert len({node_name(client, name) for name in names}) == MASTERS
    await client.ping()
    writes = recorded_writes(monkeypatch)
    pipe = client.pipeline(transaction=False)
    for i, name in enumerate(names):
        pipe.set(name, str(i), px=60_000)
        pipe.hset(name + "h", mapping={"l": i})
    assert await pipe.execute() == [True, 1] * len(names)
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.get(name)
        pipe.hmget(name + "h", ["l", "c"])
    replies = await pipe.execute()
    monkeypatch.undo()
    assert replies[::2] == [str(i).encode() for i in range(len(names))]
    assert replies[1::2] == [[str(i).encode(), None] for i in range(len(names))]
    assert len(writes) == 2 * MASTERS and sum(map(len, writes)) == 4 * len(names)
    pipe = client.pipeline(transaction=False)  # not routed: RESP3 shapes these
    pipe.zadd(names[0] + "z", {"a": 1.0})
    pipe.zrange(names[0] + "z", 0, -1, withscores=True)
    pipe.hgetall(names[0] + "h")
    assert await pipe.execute() == [1, [(b"a", 1.0)], {b"l": b"0"}]


async def test_a_pipeline_sent_to_the_wrong_nodes_still_gets_every_reply(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    names = [keys.view("user", user) for user in range(30)]
    await client.ping()
    primaries = client.get_primaries()

    def wrong_node(client: RedisCluster, slot: int) -> Any:
        right = client.nodes_manager.get_node_from_slot(slot)
        return next(node for node in primaries if node.name != right.name)

    monkeypatch.setattr(ScriptRunner, "_node_of", staticmethod(wrong_node))
    pipe = client.pipeline(transaction=False)
    for i, name in enumerate(names):
        pipe.set(name, str(i))
    assert await pipe.execute() == [True] * len(names)
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.get(name)
    assert await pipe.execute() == [str(i).encode() for i in range(len(names))]


async def test_a_fan_out_batch_sent_to_the_wrong_nodes_still_lands_once(
    cluster_caches: Caches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-slot script calls go straight to the node the slot map names
    (adapters/redis/scripts.py); after a resharding or failover that map is stale, and
    the calls must still land, once each, through the redirections."""
    client, keys = cluster_caches.client, cluster_caches.keys
    assert isinstance(client, RedisCluster) and keys is not None
    timelines = RedisTimelineStore(client, keys, length=5)
    users = list(range(1, 301))
    for user in users:
        await timelines.replace(user, [10])
    primaries = client.get_primaries()

    def wrong_node(client: RedisCluster, slot: int) -> Any:
        right = client.nodes_manager.get_node_from_slot(slot)
        return next(node for node in primaries if node.name != right.name)

    monkeypatch.setattr(ScriptRunner, "_node_of", staticmethod(wrong_node))
    written = await timelines.insert_many([(30, users)])
    monkeypatch.undo()

    assert written == len(users)
    assert {user: await timelines.read(user, None, 10) for user in users[:40]} == {
        user: [30, 10] for user in users[:40]
    }
