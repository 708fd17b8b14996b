"""The Redis timelines behave exactly like the in-process ones under any mix of
operations: the same random sequence runs on both and every read must agree.

Small caps make the Redis-only states common: dead entries past the cap, the EMPTY
marker, late and repeated inserts, merges and removals crossing the cap.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from feedloom.adapters.memory.timeline_store import MemoryTimelineStore
from feedloom.adapters.redis.timeline_store import RedisTimelineStore
from feedloom.ports import TimelineStore
from tests.contract.conftest import Caches

pytestmark = pytest.mark.redis
USERS = (1, 2, 3)


async def random_step(rng: random.Random, stores: tuple[TimelineStore, ...]) -> str:
    user, post_id = rng.choice(USERS), rng.randrange(1, 80)
    ids = [rng.randrange(1, 80) for _ in range(rng.randrange(0, 6))]
    runs = [(rng.randrange(1, 80), rng_users(rng.randrange(80))) for _ in range(rng.randrange(4))]
    kinds, weights = (
        ["insert", "batch", "merge", "remove", "replace", "drop"],
        [50, 20, 8, 10, 8, 4],
    )
    kind = rng.choices(kinds, weights)[0]
    written = set()
    for store in stores:
        if kind == "insert":
            await store.insert_if_present(rng_users(post_id), post_id)
        elif kind == "batch":
            written.add(await store.insert_many(runs))
        elif kind == "merge":
            await store.merge_if_present(user, ids)
        elif kind == "remove":
            await store.remove(user, ids)
        elif kind == "replace":
            await store.replace(user, ids)
        else:
            await store.drop(user)
    assert len(written) <= 1, f"insert_many counted {written} for runs={runs}"
    return f"{kind} user={user} post={post_id} ids={ids} runs={runs}"


def rng_users(post_id: int) -> list[int]:
    return [user for user in USERS if (post_id + user) % 4 != 0]  # a varying subset


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("cap", [3, 12, 40])
async def test_any_operation_sequence_reads_the_same_as_in_memory(
    redis_caches: Caches, seed: int, cap: int
) -> None:
    assert redis_caches.client is not None and redis_caches.keys is not None
    memory = MemoryTimelineStore(lambda: datetime(2026, 1, 1, tzinfo=UTC), cap)
    redis = RedisTimelineStore(redis_caches.client, redis_caches.keys, cap)
    rng = random.Random(seed)
    history: list[str] = []
    for _ in range(200):
        history.append(await random_step(rng, (memory, redis)))
        for user in USERS:
            before = rng.choice([None, rng.randrange(1, 80)])
            expected = await memory.read(user, before, cap)
            assert await redis.read(user, before, cap) == expected, history[-5:]
