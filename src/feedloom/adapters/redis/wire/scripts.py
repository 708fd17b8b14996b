"""Running Lua on one Redis server or a Redis Cluster.

Scripts run by SHA (EVALSHA) and are loaded on first NOSCRIPT, so a restarted or
failed-over node just costs one extra round trip. A cluster runs a script only on keys
of one slot, so a call over many keys (a fan-out batch) becomes one call per slot,
pipelined: redis-py's cluster pipeline sends each node its share concurrently, one round
trip per node. On a single server the same batch is one call.

On a cluster the slot of each key is computed once per process (remembered, bounded),
and each per-slot call is handed its node: redis-py would otherwise hash every key of
every call again to route it, which was a fifth of a cluster fan-out worker's CPU. A
call that meets a moved slot (resharding, failover) is still redirected by redis-py,
which then refreshes its slot map (tests/integration/test_redis_cluster.py).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from cachetools import FIFOCache
from redis.asyncio import Redis, RedisCluster
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ConnectionError,
    MovedError,
    NoScriptError,
    TryAgainError,
)

RedisClient: TypeAlias = Redis | RedisCluster
Arg: TypeAlias = bytes | str | int | float
Shape: TypeAlias = Callable[[tuple[Arg, ...], Any], Any]  # (command, raw reply) -> reply
REDIRECTED = (MovedError, AskError, TryAgainError, ClusterDownError)
KNOWN_SLOTS = 200_000  # key -> slot facts a cluster client keeps unless told otherwise


@dataclass(frozen=True, slots=True)
class LuaScript:
    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


def per_key_args(per_key: Sequence[Sequence[Arg]], indexes: Iterable[int]) -> list[Arg]:
    """The arguments of the keys at `indexes`, in order (none when there are none)."""
    return [arg for i in indexes for arg in per_key[i]] if per_key else []


_CLUSTER_TYPES: dict[type, bool] = {}


def is_cluster(client: RedisClient) -> bool:
    """Asked several times a read: redis-py's client classes are typing Protocols, so
    isinstance() goes through their metaclass (~1.5 µs); a type's answer is kept."""
    kind = type(client)
    known = _CLUSTER_TYPES.get(kind)
    if known is None:
        known = _CLUSTER_TYPES[kind] = isinstance(client, RedisCluster)
    return known


def known_slots(limit: int = KNOWN_SLOTS) -> FIFOCache[Arg, int]:
    """Key -> slot facts: one memo per cluster client (client.py `RoutedCluster`),
    shared by every runner on it; the oldest go first."""
    return FIFOCache(maxsize=limit)


class ScriptRunner:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        # A RoutedCluster's own memo; another cluster client gets one per runner.
        self._slots: FIFOCache[Arg, int] = getattr(client, "known_slots", None) or known_slots()

    async def call(self, script: LuaScript, keys: Sequence[Arg], args: Sequence[Arg]) -> Any:
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
        every = range(len(keys))
        if not isinstance(client, RedisCluster):
            return [await self.call(script, keys, [*shared, *per_key_args(per_key, every)])]
        return await self._per_slot(
            script, keys, every, shared, lambda of_slot: per_key_args(per_key, of_slot)
        )

    async def call_each(
        self, script: LuaScript, calls: Sequence[tuple[str, Sequence[Arg]]]
    ) -> list[Any]:
        """One call of `script` per (key, ARGV), replies in order, in one round trip:
        on a cluster, each node's calls in one write over its multiplexed connection
        (or one cluster pipeline), in the given order (calls on one key run in that
        order); elsewhere, one pipeline."""
        if not calls:
            return []
        commands = [("EVALSHA", script.sha, 1, key, *args) for key, args in calls]
        return await self._sent(
            script, commands, self._slots_of(self._client, [k for k, _ in calls])
        )

    async def each_on_its_node(
        self,
        commands: Sequence[tuple[Arg, ...]],
        raise_on_error: bool = True,
        shape: Shape | None = None,
    ) -> list[Any]:
        """Plain commands of one key each, their first argument, replies in order and
        in one round trip: on a cluster, each node's commands in one write, as
        `call_each` sends scripts; elsewhere, one pipeline. A command's error is raised,
        or with `raise_on_error=False` returned in its place. `shape` turns a reply read
        straight off a multiplexed connection into what redis-py's own path returns."""
        keys = [command[1] for command in commands]
        results = await self._each(commands, self._slots_of(self._client, keys), shape)
        for result in results:
            if raise_on_error and isinstance(result, Exception):
                raise result
        return results

    async def _sent(
        self, script: LuaScript, commands: Sequence[tuple[Arg, ...]], slots: Sequence[int]
    ) -> list[Any]:
        """Calls of `script` (`slots[i]` is call i's), each node's in one write. A
        NOSCRIPT loads the script and sends those calls again; a call's error is raised."""
        results = await self._each(commands, slots)
        missing = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
        if missing:
            await self._load(script)
            again = await self._each([commands[i] for i in missing], [slots[i] for i in missing])
            for i, result in zip(missing, again, strict=True):
                results[i] = result
        for result in results:
            if isinstance(result, Exception):
                raise result
        return results

    async def _each(
        self, commands: Sequence[tuple[Arg, ...]], slots: Sequence[int], shape: Shape | None = None
    ) -> list[Any]:
        client = self._client
        if isinstance(client, RedisCluster):
            return await self._pipelined(client, commands, slots, shape)
        pipe = client.pipeline(transaction=False)
        for command in commands:
            pipe.execute_command(*command)
        results: list[Any] = await pipe.execute(raise_on_error=False)
        return results

    async def call_per_node(
        self,
        script: LuaScript,
        on_node: LuaScript,
        keys: Sequence[Arg],
        shared: Sequence[Arg],
        per_key: Sequence[Sequence[Arg]],
    ) -> list[Any]:
        """One call of `script` over `keys` (ARGV: `shared`, then the `per_key`
        arguments of each key in KEYS order); on a cluster, one call of `on_node` per
        primary, carrying every key that node serves (ARGV: `shared`, the key count,
        the keys, then their `per_key` arguments). For idempotent scripts only: a node
        that refuses a key (a stale slot map) has its whole call sent again per slot,
        through redirections."""
        client = self._client
        if not keys:
            return []

        def args_of(indexes: Iterable[int]) -> list[Arg]:
            return per_key_args(per_key, indexes)

        if not isinstance(client, RedisCluster):
            return [await self.call(script, keys, [*shared, *args_of(range(len(keys)))])]

        if getattr(client, "multiplexed", None) is None:
            return await self._per_slot(script, keys, range(len(keys)), shared, args_of)
        calls = [
            (
                node,
                indexes,
                (
                    "EVALSHA",
                    on_node.sha,
                    0,
                    *shared,
                    len(indexes),
                    *(keys[i] for i in indexes),
                    *args_of(indexes),
                ),
            )
            for node, indexes in self._by_node(client, self._slots_of(client, keys))
        ]
        results = await self._on_nodes(client, on_node, [(node, cmd) for node, _, cmd in calls])
        for at, (result, (_, indexes, _)) in enumerate(zip(results, calls, strict=True)):
            if isinstance(result, Exception):
                again = await self._per_slot(script, keys, indexes, shared, args_of)
                results[at] = sum(int(r) for r in again)
        return results

    async def _per_slot(
        self,
        script: LuaScript,
        keys: Sequence[Arg],
        indexes: Iterable[int],
        shared: Sequence[Arg],
        tail: Callable[[list[int]], list[Arg]],
    ) -> list[Any]:
        """One call of `script` per slot of the keys at `indexes` (ARGV: `shared`, then
        `tail` of the slot's indexes), through redis-py's redirections."""
        indexes = list(indexes)
        by_slot: dict[int, list[int]] = defaultdict(list)
        slots = self._slots_of(self._client, [keys[i] for i in indexes])
        for index, slot in zip(indexes, slots, strict=True):
            by_slot[slot].append(index)
        commands = [
            (
                "EVALSHA",
                script.sha,
                len(of_slot),
                *(keys[i] for i in of_slot),
                *shared,
                *tail(of_slot),
            )
            for of_slot in by_slot.values()
        ]
        return await self._sent(script, commands, list(by_slot))

    async def _on_nodes(
        self, client: RedisCluster, script: LuaScript, calls: Sequence[tuple[Any, tuple[Arg, ...]]]
    ) -> list[Any]:
        """One command per node, all at once, each over the node's multiplexed
        connection; a NOSCRIPT loads the script everywhere and sends the call again."""
        routes = [client.multiplexed(node) for node, _ in calls]  # type: ignore[attr-defined]
        try:
            replies = await asyncio.gather(
                *(
                    route.execute([command])
                    for route, (_, command) in zip(routes, calls, strict=True)
                )
            )
        except ConnectionError:
            await _refresh_slots(client)
            raise
        results = [reply for [reply] in replies]
        missing = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
        if missing:
            await self._load(script)
            again = await self._on_nodes(client, script, [calls[i] for i in missing])
            for i, result in zip(missing, again, strict=True):
                results[i] = result
        return results

    def _by_node(self, client: RedisCluster, slots: Sequence[int]) -> list[tuple[Any, list[int]]]:
        """Each primary the slot map names, with the indexes of the slots it serves."""
        by_node: dict[str, tuple[Any, list[int]]] = {}
        for index, slot in enumerate(slots):
            node = self._node_of(client, slot)
            by_node.setdefault(node.name, (node, []))[1].append(index)
        return list(by_node.values())

    @staticmethod
    def _node_of(client: RedisCluster, slot: int) -> Any:
        """The primary the client's slot map names for `slot` (it may be stale)."""
        return client.nodes_manager.get_node_from_slot(slot)

    def _slots_of(self, client: RedisClient, keys: Sequence[Arg]) -> list[int]:
        """The keys' slots (remembered, bounded); all 0 on a single server."""
        if not isinstance(client, RedisCluster):
            return [0] * len(keys)
        known = self._slots
        slots = []
        for key in keys:
            slot = known.get(key)
            if slot is None:
                slot = known[key] = client.keyslot(key)
            slots.append(slot)
        return slots

    async def _pipelined(
        self,
        client: RedisCluster,
        commands: Sequence[tuple[Arg, ...]],
        slots: Sequence[int] | None = None,
        shape: Shape | None = None,
    ) -> list[Any]:
        """The commands in one cluster pipeline; with `slots`, each goes straight to the
        node of its slot (module doc)."""
        routed = getattr(client, "multiplexed", None)
        if slots is not None and routed is not None:
            return await self._per_node(client, commands, slots, shape)
        # redis-py's own pipeline, which follows redirections; never the client's
        # pipeline(), which may route through this runner again (client.py).
        pipe = RedisCluster.pipeline(client)
        if slots is None:
            for command in commands:
                pipe.execute_command(*command)
        else:
            for command, slot in zip(commands, slots, strict=True):
                pipe.execute_command(*command, target_nodes=self._node_of(client, slot))
        results: list[Any] = await pipe.execute(raise_on_error=False)
        return results

    async def _per_node(
        self,
        client: RedisCluster,
        commands: Sequence[tuple[Arg, ...]],
        slots: Sequence[int],
        shape: Shape | None = None,
    ) -> list[Any]:
        """Each node's commands in one write over its multiplexed connection, all nodes
        at once, each reply `shape`d. Commands a node redirects (a stale slot map) are
        sent again through redis-py's cluster pipeline, which follows the redirection,
        refreshes the map and shapes the replies itself. A lost connection is raised,
        not retried: a call may have run already."""
        groups = self._by_node(client, slots)
        routes = [client.multiplexed(node) for node, _ in groups]  # type: ignore[attr-defined]
        if any(route is None for route in routes):
            return await self._pipelined(client, commands)
        try:
            replies = await asyncio.gather(
                *(
                    route.execute([commands[i] for i in indexes])
                    for route, (_, indexes) in zip(routes, groups, strict=True)
                )
            )
        except ConnectionError:
            await _refresh_slots(client)
            raise
        results: list[Any] = [None] * len(commands)
        for (_, indexes), node_replies in zip(groups, replies, strict=True):
            for index, reply in zip(indexes, node_replies, strict=True):
                if shape is not None and not isinstance(reply, Exception):
                    reply = shape(commands[index], reply)
                results[index] = reply
        redirected = [i for i, result in enumerate(results) if isinstance(result, REDIRECTED)]
        if redirected:
            again = await self._pipelined(client, [commands[i] for i in redirected])
            for i, result in zip(redirected, again, strict=True):
                results[i] = result
        return results

    async def _load(self, script: LuaScript) -> None:
        # A cluster client sends SCRIPT LOAD to every primary.
        await self._client.script_load(script.source)


async def _refresh_slots(client: RedisCluster) -> None:
    """After a node was lost: ask the cluster for its slot map again (a failover may
    have moved the node's slots), so the next call goes where they are now."""
    try:
        await client.nodes_manager.initialize()
    except Exception:  # the lost connection is the error to report
        return
