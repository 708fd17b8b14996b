"""Redis connection details: cluster URLs, redacted errors, hiredis command packing, and
the timeline key names the fan-out remembers."""

from __future__ import annotations

import pytest
from redis.asyncio.connection import Connection

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.timeline_store import KnownNames
from feedloom.adapters.redis.wire.client import (
    RedisUnavailable,
    _PackedConnection,
    open_client,
    parse_redis_url,
    redacted,
)


def test_a_cluster_is_named_by_the_url_scheme_or_the_setting() -> None:
    assert parse_redis_url("redis+cluster://10.0.0.1:7000/0") == ("redis://10.0.0.1:7000/0", True)
    assert parse_redis_url("rediss+cluster://h:7000") == ("rediss://h:7000", True)
    assert parse_redis_url("redis://h:6379", cluster=True) == ("redis://h:6379", True)
    assert parse_redis_url("redis://h:6379") == ("redis://h:6379", False)


def test_a_password_never_shows_in_an_error() -> None:
    assert redacted("redis://user:s3cret@h:6379/0") == "redis://user:***@h:6379/0"
    assert redacted("redis://h:6379") == "redis://h:6379"


@pytest.mark.parametrize(
    "command",
    [
        ("EVALSHA", "a" * 40, 2, "fl:tl:{1}", b"fl:tl:{2}", 500, b"\x00\xff" * 4),
        ("SCRIPT LOAD", "return 1"),
        ("SET", "k", "värde", "PX", 1.5),
    ],
)
def test_hiredis_packs_commands_byte_for_byte_like_redis_py(command: tuple[object, ...]) -> None:
    packed = b"".join(_PackedConnection().pack_command(*command))  # type: ignore[arg-type]
    assert packed == b"".join(Connection().pack_command(*command))  # type: ignore[arg-type]


async def test_an_unreachable_server_is_a_clear_error_at_start() -> None:
    with pytest.raises(RedisUnavailable, match=r"Redis at redis://:\*\*\*@127\.0\.0\.1:1/0"):
        await open_client("redis://:pw@127.0.0.1:1/0")


@pytest.mark.parametrize("prefix", ["", "a{b", "x}"])
def test_a_prefix_that_would_pin_every_key_to_one_slot_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match="brace-free"):
        RedisKeys(prefix)


def test_each_entity_has_its_own_hash_tag() -> None:
    keys = RedisKeys("fl")
    assert keys.timeline(42) == "fl:tl:{t42}:42"  # a bucket of users: one slot for many
    assert keys.timeline(1066) == "fl:tl:{t42}:1066"
    assert keys.stream("bulk") == "fl:q:{bulk}"


def test_the_timeline_bucket_count_decides_the_hash_tag() -> None:
    keys = RedisKeys("fl", timeline_buckets=8)
    assert keys.timeline(42) == "fl:tl:{t2}:42"
    assert keys.author_timeline(17) == "fl:at:{t1}:17"
    with pytest.raises(ValueError, match="at least 1"):
        RedisKeys("fl", timeline_buckets=0)


def test_remembered_key_names_are_the_keys_names_and_stay_bounded() -> None:
    keys = RedisKeys("fl")
    names = KnownNames(keys.timeline, limit=4)
    owners = [7, 8, 9, 10, 11, 7, 12]
    assert names(owners) == [keys.timeline(owner) for owner in owners]
    assert len(names._names) <= 4
