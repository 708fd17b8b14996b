"""Two API processes and two workers on one PostgreSQL schema and Redis prefix: users
post and read concurrently over HTTP while one worker is killed (SIGKILL) holding
unacknowledged deliveries of a big author's bulk-lane fan-out.

The promise checked afterwards (fanout_check.py): every acknowledged (201) post exists
in the store and is in every follower's timeline exactly once, within RECOVERY_BOUND_S
of the kill or of the last acknowledgment, whichever is later: traffic goes on after
the kill (on a busy 2-core machine for 40 s and more), and the last posts need their
time too.

And the freshness promise across the kill, at the default settings: the posts whose
deliveries the dead worker held reach every follower's timeline within HELD_BOUND_S
of the kill. The survivor takes them over by XAUTOCLAIM once they have been idle for
the queue's claim time (FEEDLOOM_RECLAIM_IDLE_S, 5 s; a live worker touches its own
every FEEDLOOM_RECLAIM_HEARTBEAT_S, 1 s, so only a dead one's go idle), then does the
work; with the old 30 s claim time this took 30 s and more.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from itertools import cycle
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from pydantic import SecretStr
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.ports import NewUser
from feedloom.settings import FanoutSettings, Settings
from tests.integration.fanout_check import wait_until_done
from tests.integration.processes import Process, fleet
from tests.limits import lifted_rate_limit_env, lifted_rate_limits
from tests.servers import (
    REDIS_URL,
    TEST_SECRET_KEY,
    postgres_settings,
    redis_settings,
    scratch_redis_prefix,
    scratch_schema,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

USERS, FOLLOWS_EACH, POSTS_EACH, READS_EACH, STAR_POSTS = 300, 8, 2, 2, 24
BULK_ABOVE, BATCH = 50, 10  # the star's 300 followers: bulk lane, 30 batches per post
IN_FLIGHT = 24
RECOVERY_BOUND_S = 30.0
# The promise is 10 s; a loaded 2-core machine gets some slack for the work itself
# (the claim time alone is 5 s), and any claim time near the old 30 s still fails.
HELD_BOUND_S = 15.0
PASSWORD = "correct horse battery"
Followers = dict[int, set[int]]


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[Settings]:
    """Default sizes, except: nobody is pulled, the star is pushed on the bulk lane in
    small batches (a long fan-out to be killed in), and passwords hash cheaply."""
    fanout = FanoutSettings(
        pull_above=100_000, push_below=90_000, bulk_above=BULK_ABOVE, batch_size=BATCH
    )
    base = Settings(
        environment="test",
        data_dir=tmp_path,
        secret_key=SecretStr(TEST_SECRET_KEY),
        password_hash_time_cost=1,
        password_hash_memory_kib=256,
        rate_limits=lifted_rate_limits(),
        fanout=fanout,
    )
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(base, schema), prefix)


def process_env(settings: Settings) -> dict[str, str]:
    """The same settings for the processes, as FEEDLOOM_* variables."""
    assert settings.database_url and settings.database_schema and settings.redis_url
    fanout = settings.fanout
    return {
        "FEEDLOOM_ENVIRONMENT": settings.environment,
        "FEEDLOOM_DATABASE_URL": settings.database_url,
        "FEEDLOOM_DATABASE_SCHEMA": settings.database_schema,
        "FEEDLOOM_REDIS_URL": settings.redis_url,
        "FEEDLOOM_REDIS_PREFIX": settings.redis_prefix,
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        "FEEDLOOM_TIMELINE_LENGTH": str(settings.timeline_length),
        "FEEDLOOM_PASSWORD_HASH_TIME_COST": str(settings.password_hash_time_cost),
        "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": str(settings.password_hash_memory_kib),
        **lifted_rate_limit_env(),
        "FEEDLOOM_FANOUT__PULL_ABOVE": str(fanout.pull_above),
        "FEEDLOOM_FANOUT__PUSH_BELOW": str(fanout.push_below),
        "FEEDLOOM_FANOUT__BULK_ABOVE": str(fanout.bulk_above),
        "FEEDLOOM_FANOUT__BATCH_SIZE": str(fanout.batch_size),
        # What the killed worker's relay had claimed but not yet marked sent is sent
        # again after this (write/relay_outbox.py): later than the claim time measured
        # here, so that path cannot stand in for it (the default is 10 s).
        "FEEDLOOM_FANOUT__RESEND_LOST_AFTER_S": "20",
    }


async def seed_users(
    feedloom: Feedloom, rng: random.Random
) -> tuple[list[int], dict[int, set[int]]]:
    """Bulk-load the users (one cheap argon2 hash for all) and a follow graph in which
    everyone follows the star (user 0) and a few others. Returns ids and followers."""
    password_hash = PasswordHasher(time_cost=1, memory_cost=256).hash(PASSWORD)
    ids = [feedloom.runtime.ids.next_id() for _ in range(USERS)]
    users = [NewUser(user_id, f"mp_{n}", f"mp {n}", password_hash) for n, user_id in enumerate(ids)]
    followers: dict[int, set[int]] = {user_id: set() for user_id in ids}
    for follower in ids[1:]:
        for followee in {ids[0], *rng.sample(ids[1:], FOLLOWS_EACH)} - {follower}:
            followers[followee].add(follower)
    edges = [(follower, followee) for followee, fans in followers.items() for follower in fans]
    await feedloom.stores.bulk.load(users, edges, feedloom.runtime.clock(), lambda _n: False)
    return ids, followers


async def kill_and_time(
    redis: Redis, prefix: str, workers: list[Process], feedloom: Feedloom, followers: Followers
) -> Kill:
    kill = await kill_a_worker_holding_bulk_deliveries(redis, prefix, workers)
    await time_the_held_posts(kill, feedloom, followers)
    return kill


class Traffic:
    """HTTP clients spread over both API processes, with bounded concurrency."""

    def __init__(self, client: httpx.AsyncClient, apis: list[Process]) -> None:
        self.client, self.urls = client, cycle([api.url for api in apis])
        self.gate = asyncio.Semaphore(IN_FLIGHT)
        self.tokens: dict[int, str] = {}
        self.acknowledged: dict[int, int] = {}  # post id -> author id
        self.failures: list[str] = []

    async def call(
        self, method: str, path: str, user: int | None = None, **body: Any
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.tokens[user]}"} if user else {}
        url = f"{next(self.urls)}{path}"
        async with self.gate:
            response = await self.client.request(method, url, headers=headers, **body)
        if response.status_code >= 500:
            self.failures.append(f"{method} {path}: {response.status_code} {response.text}")
        return response

    async def login(self, n: int, user_id: int) -> None:
        body = {"username": f"mp_{n}", "password": PASSWORD}
        response = await self.call("POST", "/v1/sessions", json=body)
        assert response.status_code == 201, response.text
        self.tokens[user_id] = response.json()["token"]

    async def read(self, user_id: int) -> None:
        response = await self.call("GET", "/v1/feed", user_id, params={"limit": 20})
        assert response.status_code == 200, response.text

    async def post(self, user_id: int, text: str) -> None:
        response = await self.call("POST", "/v1/posts", user_id, json={"text": text})
        if response.status_code == 201:
            self.acknowledged[int(response.json()["post_id"])] = user_id

    async def everyday_life(self, user_id: int, rng: random.Random) -> None:
        steps = ["post"] * POSTS_EACH + ["read"] * READS_EACH
        rng.shuffle(steps)
        for n, step in enumerate(steps):
            await (self.post(user_id, f"post {n}") if step == "post" else self.read(user_id))


@dataclass
class Kill:
    victim: Process
    held: dict[int, int]  # post id -> author id, of the deliveries it died holding
    at: float  # monotonic
    held_reached_after_s: float = float("inf")


async def kill_a_worker_holding_bulk_deliveries(
    redis: Redis, prefix: str, workers: list[Process]
) -> Kill:
    """SIGKILL the first worker seen holding unacknowledged bulk-lane deliveries (a big
    fan-out in progress); returns it, the posts of what it still held, and when."""
    bulk = RedisKeys(prefix).stream("bulk")
    by_pid = {worker.pid: worker for worker in workers}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        await asyncio.sleep(0.005)
        try:
            consumers = (await redis.xpending(bulk, "fanout"))["consumers"]
        except ResponseError:  # no consumer group yet: no worker has started consuming
            continue
        for consumer in consumers:
            pid = _pid_of(consumer["name"])
            if consumer["pending"] and pid in by_pid:
                os.kill(pid, signal.SIGKILL)
                killed_at = time.monotonic()
                by_pid[pid].popen.wait()
                return Kill(by_pid[pid], await _held_by(redis, prefix, pid), killed_at)
    raise AssertionError("no worker ever held a bulk-lane delivery")


def _pid_of(consumer: bytes) -> int:
    return int(consumer.decode().rsplit("-", 2)[1])  # write/worker.py consumer_name


async def _held_by(redis: Redis, prefix: str, pid: int) -> dict[int, int]:
    """The posts of the deliveries the process's consumers hold, on either lane."""
    held: dict[int, int] = {}
    for lane in ("default", "bulk"):
        stream = RedisKeys(prefix).stream(lane)
        for consumer in (await redis.xpending(stream, "fanout"))["consumers"]:
            if _pid_of(consumer["name"]) != pid:
                continue
            pending = await redis.xpending_range(
                stream, "fanout", "-", "+", 10_000, consumername=consumer["name"]
            )
            for entry in pending:
                found = await redis.xrange(stream, entry["message_id"], entry["message_id"])
                for _id, fields in found or []:
                    if fields and fields[b"kind"] == b"published":
                        held[int(fields[b"post_id"])] = int(fields[b"author_id"])
    return held


async def time_the_held_posts(kill: Kill, feedloom: Feedloom, followers: Followers) -> None:
    """Watch the posts the dead worker held until each is in every follower's timeline
    (or twice the bound has passed); note how long after the kill that was."""
    length = feedloom.settings.timeline_length
    waiting = {(post, fan) for post, author in kill.held.items() for fan in followers[author]}
    while waiting and time.monotonic() - kill.at < 2 * HELD_BOUND_S:
        fans = sorted({fan for _post, fan in waiting})
        read = await asyncio.gather(
            *(feedloom.caches.timelines.read(fan, None, length) for fan in fans)
        )
        timelines = {fan: set(ids or ()) for fan, ids in zip(fans, read, strict=True)}
        waiting = {(post, fan) for post, fan in waiting if post not in timelines[fan]}
        if waiting:
            await asyncio.sleep(0.2)
    if not waiting:
        kill.held_reached_after_s = time.monotonic() - kill.at


async def test_acknowledged_posts_reach_every_follower_once_though_a_worker_is_killed(
    stack: Settings, tmp_path: Path
) -> None:
    rng = random.Random(3)
    # `feedloom`: this process's view of the same store and caches
    redis = Redis.from_url(REDIS_URL)
    async with open_feedloom(stack) as feedloom:
        try:
            ids, followers = await seed_users(feedloom, rng)
            with fleet(process_env(stack), tmp_path) as processes:
                apis = [processes.api(f"api{n}", worker_id=1 + n) for n in range(2)]
                workers = [processes.worker(f"worker{n}", worker_id=3 + n) for n in range(2)]
                await processes.wait_ready()
                async with httpx.AsyncClient(timeout=30) as client:
                    traffic = Traffic(client, apis)
                    await asyncio.gather(*(traffic.login(n, user) for n, user in enumerate(ids)))
                    await asyncio.gather(*(traffic.read(user) for user in ids))  # timelines exist
                    killing = asyncio.create_task(
                        kill_and_time(redis, stack.redis_prefix, workers, feedloom, followers)
                    )
                    await asyncio.gather(
                        *(traffic.post(ids[0], f"star {n}") for n in range(STAR_POSTS)),
                        *(traffic.everyday_life(user, random.Random(user)) for user in ids[1:]),
                    )
                    last_acknowledged = time.monotonic()
                    kill = await killing
                    victim, killed_at = kill.victim, kill.at
                    assert kill.held, f"{victim.name} had finished its fan-out when killed"
                    print(
                        f"the {len(kill.held)} posts {victim.name} held reached every "
                        f"follower {kill.held_reached_after_s:.1f} s after the kill"
                    )
                    assert kill.held_reached_after_s <= HELD_BOUND_S, processes.tails()
                    assert traffic.failures == [], traffic.failures[:5]
                    assert len(traffic.acknowledged) == STAR_POSTS + (USERS - 1) * POSTS_EACH
                    problems = await wait_until_done(
                        feedloom,
                        traffic.acknowledged,
                        followers,
                        killed_at=killed_at,
                        last_acknowledged=last_acknowledged,
                        bound_s=RECOVERY_BOUND_S,
                    )
                assert problems == [], (
                    f"{len(problems)} left, e.g. {problems[:5]}\n{processes.tails()}"
                )
                assert all(w.popen.poll() is None for w in workers if w is not victim)
        finally:
            await redis.aclose()
