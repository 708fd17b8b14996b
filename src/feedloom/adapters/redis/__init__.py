"""Redis adapters: timelines, caches and the event log for production deployments."""

from feedloom.adapters.redis.connect import (
    RedisConfig,
    RedisConnection,
    RedisMemos,
    open_redis,
    redis_caches,
    redis_event_queue,
)
from feedloom.adapters.redis.wire import RedisUnavailable

__all__ = [
    "RedisConfig",
    "RedisConnection",
    "RedisMemos",
    "RedisUnavailable",
    "open_redis",
    "redis_caches",
    "redis_event_queue",
]
