"""The timeline bucket count is part of every timeline key: every process of a
deployment must use the same one, so a process set to another count is refused at
start, in one line, instead of reading and writing keys nobody else does."""

from __future__ import annotations

from datetime import timedelta

import pytest

from feedloom.adapters.redis import RedisConfig, open_redis
from feedloom.adapters.redis.connect import TimelineBucketsDiffer
from feedloom.adapters.redis.keys import RedisKeys
from tests.integration.test_cli_postgres import feedloom
from tests.servers import REDIS_URL, scratch_redis_prefix, scratch_schema

pytestmark = pytest.mark.redis


def config(prefix: str, buckets: int) -> RedisConfig:
    return RedisConfig(
        url=REDIS_URL,
        cluster=False,
        prefix=prefix,
        timeline_length=50,
        author_timeline_length=50,
        inactive_after=timedelta(days=30),
        reclaim_idle_s=30.0,
        timeline_buckets=buckets,
    )


async def open_and_close(prefix: str, buckets: int) -> None:
    redis = await open_redis(config(prefix, buckets))
    await redis.close()


async def test_the_first_process_sets_the_count_and_another_count_is_refused() -> None:
    async with scratch_redis_prefix() as prefix:
        await open_and_close(prefix, 1024)
        await open_and_close(prefix, 1024)  # the same count: agreed
        with pytest.raises(TimelineBucketsDiffer) as refused:
            await open_and_close(prefix, 128)
        message = str(refused.value)
        assert "keyed for 1024 buckets" in message and "set to 128" in message
        assert f"{prefix}:timeline-buckets" in message  # what to delete to change it


async def test_after_the_recorded_count_is_deleted_a_new_count_starts_over() -> None:
    import redis.asyncio as aioredis

    async with scratch_redis_prefix() as prefix:
        await open_and_close(prefix, 1024)
        client = aioredis.Redis.from_url(REDIS_URL)
        try:
            await client.delete(RedisKeys(prefix).timeline_layout())
        finally:
            await client.aclose()
        await open_and_close(prefix, 128)
        with pytest.raises(TimelineBucketsDiffer):
            await open_and_close(prefix, 1024)


@pytest.mark.postgres
async def test_a_worker_set_to_another_count_names_it_in_one_line() -> None:
    async with scratch_redis_prefix() as prefix, scratch_schema() as schema:
        await open_and_close(prefix, 1024)
        refused = feedloom(
            "worker",
            schema=schema,
            FEEDLOOM_REDIS_URL=REDIS_URL,
            FEEDLOOM_REDIS_PREFIX=prefix,
            FEEDLOOM_REDIS_TIMELINE_BUCKETS="128",
        )
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in refused.stderr
    assert "holds timelines keyed for 1024 buckets" in lines[0]
