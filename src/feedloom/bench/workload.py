"""The peers' workload (shared/peers/workload.py), reimplemented: the same graph from
the same seed, proven by the same fingerprint, so feedloom's figures sit beside the
peers' on identical input. Standard library only, like the original."""

from __future__ import annotations

import hashlib
import itertools
import random
import struct
from dataclasses import dataclass

PEERS_USERS, PEERS_SEED = 20_000, 42
PEERS_FINGERPRINT = "6526fb5ab4753d66"  # of the 20,000-user graph, seed 42
KMIN, KMAX, ALPHA = 10, 149, 1.8


@dataclass(frozen=True, slots=True)
class Workload:
    followees: list[list[int]]  # sorted, per user 0..n-1

    @property
    def users(self) -> int:
        return len(self.followees)

    @property
    def edges(self) -> list[tuple[str, str]]:
        """follower, followee as CSV IDs (what the graph import takes)."""
        return [(str(u), str(v)) for u, fs in enumerate(self.followees) for v in fs]

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for user, followees in enumerate(self.followees):
            digest.update(struct.pack("<ii", user, len(followees)))
            digest.update(struct.pack(f"<{len(followees)}i", *followees))
        return digest.hexdigest()[:16]


def peers_workload(users: int = PEERS_USERS, seed: int = PEERS_SEED) -> Workload:
    """Pareto(1.8) popularity; each user follows UniformInt[10, 149] distinct others
    drawn in proportion to popularity (the draw order is the original's, exactly)."""
    if users <= KMAX:
        raise ValueError(f"the peers' workload needs more than {KMAX} users")
    rng = random.Random(seed)
    weights = [rng.paretovariate(ALPHA) for _ in range(users)]
    cumulative = list(itertools.accumulate(weights))
    population = range(users)
    followees = []
    for user in range(users):
        want = rng.randint(KMIN, KMAX)
        chosen: set[int] = set()
        order: list[int] = []
        while len(order) < want:
            for other in rng.choices(population, cum_weights=cumulative, k=want - len(order)):
                if other != user and other not in chosen:
                    chosen.add(other)
                    order.append(other)
                    if len(order) == want:
                        break
        followees.append(sorted(order))
    return Workload(followees)


def sample_readers(users: int, count: int, seed: int = PEERS_SEED, salt: int = 1) -> list[int]:
    """The peers' reader sample (salt 1: measured readers; the warm-up uses others)."""
    return random.Random(seed * 1000003 + salt).sample(range(users), min(count, users))
