"""Redis adapters: timelines, caches and the event log for production deployments."""

from feedloom.adapters.redis.client import RedisUnavailable
from feedloom.adapters.redis.connect import RedisConfig, redis_caches

__all__ = ["RedisConfig", "RedisUnavailable", "redis_caches"]
