"""Running Lua on one Redis server or a Redis Cluster.

Scripts run by SHA (EVALSHA) and are loaded on first NOSCRIPT, so a restarted or
failed-over node just costs one extra round trip. A cluster runs a script only on keys
of one slot, so a call over many keys (a fan-out batch) becomes one call per slot,
pipelined: redis-py's cluster pipeline sends each node its share concurrently, one round
trip per node. On a single server the same batch is one call.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from redis.asyncio import Redis, RedisCluster
from redis.exceptions import NoScriptError

RedisClient: TypeAlias = Redis | RedisCluster
Arg: TypeAlias = bytes | str | int


@dataclass(frozen=True, slots=True)
class LuaScript:
    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


def is_cluster(client: RedisClient) -> bool:
    return isinstance(client, RedisCluster)


class ScriptRunner:
    def __init__(self, client: RedisClient) -> None:
        self._client = client

    async def call(self, script: LuaScript, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """One script call; in a cluster, every key must hash to the same slot."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self._client.execute_command(*command)
        except NoScriptError:
            await self._load(script)
            return await self._client.execute_command(*command)

    async def call_per_slot(
        self,
        script: LuaScript,
        keys: Sequence[str],
        shared: Sequence[Arg],
        per_key: Sequence[Sequence[Arg]] = (),
    ) -> list[Any]:
        """Run a script over many keys; returns one result per call made.

        ARGV is `shared` followed by the `per_key` arguments of each key in KEYS order.
        """
        if not keys:
            return []
        client = self._client
        if not isinstance(client, RedisCluster):
            flat = [arg for args in per_key for arg in args]
            return [await self.call(script, keys, [*shared, *flat])]
        by_slot: dict[int, list[int]] = defaultdict(list)
        for index, key in enumerate(keys):
            by_slot[client.keyslot(key)].append(index)
        commands = [
            (
                "EVALSHA",
                script.sha,
                len(indexes),
                *(keys[i] for i in indexes),
                *shared,
                *(arg for i in indexes for arg in (per_key[i] if per_key else ())),
            )
            for indexes in by_slot.values()
        ]
        results = await self._pipelined(client, commands)
        missing = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
        if missing:
            await self._load(script)
            again = await self._pipelined(client, [commands[i] for i in missing])
            for i, result in zip(missing, again, strict=True):
                results[i] = result
        for result in results:
            if isinstance(result, Exception):
                raise result
        return results

    async def _pipelined(
        self, client: RedisCluster, commands: Sequence[tuple[Arg, ...]]
    ) -> list[Any]:
        pipe = client.pipeline()
        for command in commands:
            pipe.execute_command(*command)
        results: list[Any] = await pipe.execute(raise_on_error=False)
        return results

    async def _load(self, script: LuaScript) -> None:
        # A cluster client sends SCRIPT LOAD to every primary.
        await self._client.script_load(script.source)
