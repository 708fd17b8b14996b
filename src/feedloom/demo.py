"""Demo data, so a newcomer's first `feedloom serve` shows a living feed.

A few hundred users on a heavy-tailed follow graph (popularity ~ Pareto), a handful
of big accounts above the (demo-sized) pull threshold, a few days of posts, likes and
comments, and a ticker that keeps posting while the server runs. Everyone's password
is DEMO_PASSWORD; log in as `demo`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from argon2 import PasswordHasher

from feedloom.bootstrap import Feedloom
from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import Comment, Post, Visibility
from feedloom.ports import AccountStore, BulkImporter, Clock, NewUser
from feedloom.write.publish_post import PublishPost

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_USERS = 300
BIG_ACCOUNTS = 5
TICK_SECONDS = 5.0
WORDS = [
    "coffee",
    "morning",
    "shipping",
    "release",
    "bug",
    "fix",
    "launch",
    "weekend",
    "hiking",
    "rain",
    "sunset",
    "deploy",
    "python",
    "feed",
    "cache",
    "redis",
    "postgres",
    "timeline",
    "cursor",
    "latency",
    "p99",
    "music",
    "book",
    "movie",
    "garden",
    "cat",
    "dog",
    "city",
    "train",
    "bike",
    "lunch",
    "idea",
    "team",
    "design",
    "review",
    "benchmark",
]


def demo_text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14))).capitalize() + "."


@contextlib.asynccontextmanager
async def demo_running(feedloom: Feedloom) -> AsyncIterator[None]:
    """`serve --demo`: seed once, then keep a ticker posting while the app runs."""
    await demo_seeder(feedloom).seed()
    stop = asyncio.Event()
    accounts, publish = feedloom.stores.accounts, feedloom.services.publish
    ticker = asyncio.create_task(run_ticker(accounts, publish, stop))
    try:
        yield
    finally:
        stop.set()
        await ticker


def demo_seeder(feedloom: Feedloom) -> DemoSeeder:
    policy = feedloom.settings.fanout.policy()
    return DemoSeeder(
        feedloom.stores.accounts,
        feedloom.stores.bulk,
        feedloom.password_hasher,
        feedloom.runtime.ids,
        feedloom.runtime.clock,
        lambda followers: policy.is_pulled(followers, False),
    )


class DemoSeeder:
    def __init__(
        self,
        accounts: AccountStore,
        bulk: BulkImporter,
        hasher: PasswordHasher,
        ids: IdGenerator,
        clock: Clock,
        is_pulled: Callable[[int], bool],
    ) -> None:
        self._accounts, self._bulk, self._hasher = accounts, bulk, hasher
        self._ids, self._clock, self._is_pulled = ids, clock, is_pulled

    async def seed(self, users: int = DEMO_USERS, seed: int = 7) -> bool:
        """Load the demo world unless the demo user already exists. True if seeded."""
        if await self._accounts.credentials(DEMO_USER) is not None:
            return False
        rng = random.Random(seed)
        password_hash = self._hasher.hash(DEMO_PASSWORD)
        names = [DEMO_USER, *(f"user{n:03d}" for n in range(1, users))]
        people = [
            NewUser(self._ids.next_id(), name, name.capitalize(), password_hash) for name in names
        ]
        ids = [person.id for person in people]
        await self._bulk.load(people, _follow_graph(rng, ids), self._clock(), self._is_pulled)
        await self._post_history(rng, ids)
        return True

    async def _post_history(self, rng: random.Random, ids: list[int]) -> None:
        """Three days of posts, minted with back-dated IDs (an ID carries its time), with
        likes and comments, in one bulk transaction."""
        start_ms = int((self._clock() - timedelta(days=3)).timestamp() * 1000)
        span_ms = 3 * 24 * 3600 * 1000
        stamps = sorted(start_ms + rng.randrange(span_ms) for _ in range(len(ids) * 3))
        clock = iter(stamps)
        minted = IdGenerator(worker_id=1023, clock_ms=lambda: next(clock))
        posts = []
        for _ in stamps:
            post_id = minted.next_id()
            visibility = Visibility.FOLLOWERS if rng.random() < 0.1 else Visibility.PUBLIC
            posts.append(
                Post(post_id, rng.choice(ids), demo_text(rng), visibility, created_at_of(post_id))
            )
        likes, comments = [], []
        for post in rng.sample(posts, len(posts) // 2):
            likes += [(post.id, user_id) for user_id in rng.sample(ids, rng.randint(1, 12))]
            if rng.random() < 0.3:
                author, comment_id = rng.choice(ids), self._ids.next_id()
                comments.append(Comment(comment_id, post.id, author, demo_text(rng), self._clock()))
        await self._bulk.load_history(posts, likes, comments, self._clock())


def _follow_graph(rng: random.Random, ids: list[int]) -> list[tuple[int, int]]:
    popularity = [rng.paretovariate(1.8) for _ in ids]
    big = rng.sample(ids[1:], BIG_ACCOUNTS)
    edges: set[tuple[int, int]] = set()
    for follower in ids:
        for followee in rng.choices(ids, weights=popularity, k=rng.randint(5, 40)):
            if followee != follower:
                edges.add((follower, followee))
        for followee in big:  # most people follow the big accounts
            if followee != follower and rng.random() < 0.6:
                edges.add((follower, followee))
    return sorted(edges)


async def run_ticker(
    accounts: AccountStore, publish: PublishPost, stop: asyncio.Event, seed: int = 11
) -> None:
    """Keep the demo alive: a random demo user posts every few seconds."""
    rng = random.Random(seed)
    names = [f"user{n:03d}" for n in range(1, DEMO_USERS)]
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_SECONDS)
            return
        credentials = await accounts.credentials(rng.choice(names))
        if credentials is not None:
            await publish(credentials.user_id, demo_text(rng), [], Visibility.PUBLIC, None)
