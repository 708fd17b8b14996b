"""Demo data, so a newcomer's first `feedloom serve` shows a living feed that looks like
people: names and posts in English, French and Bengali (demo/people.py,
demo/sentences.py), hashtags and mentions, drawn avatars and pictures (demo/pictures.py).

A few hundred users on a heavy-tailed follow graph (popularity ~ Pareto), a handful
of big accounts above the (demo-sized) pull threshold, a few days of posts, likes and
comments, a few fresh posts with pictures, and a ticker that keeps posting while the
server runs. Everyone's password is DEMO_PASSWORD; log in as `demo`.

Avatars and pictures go through the same upload use case as a client's (checked,
re-encoded, resized by the worker); on a bucket, where uploads go straight to the
bucket, the demo has none.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from argon2 import PasswordHasher

from feedloom.bootstrap import Feedloom
from feedloom.demo.people import Person, demo_people
from feedloom.demo.texts import demo_reply, demo_text
from feedloom.demo.uploads import DemoPictures
from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import Comment, Post, Visibility
from feedloom.ports import AccountStore, BulkImporter, Clock, NewUser
from feedloom.write.publish_post import PublishPost

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_USERS = 300
BIG_ACCOUNTS = 5
TICK_SECONDS = 5.0
PEOPLE_SEED = 7


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
    services = feedloom.services
    return DemoSeeder(
        feedloom.stores.accounts,
        feedloom.stores.bulk,
        feedloom.password_hasher,
        feedloom.runtime.ids,
        feedloom.runtime.clock,
        lambda followers: policy.is_pulled(followers, False),
        DemoPictures(services.media, services.edit_profile, services.publish),
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
        pictures: DemoPictures,
    ) -> None:
        self._accounts, self._bulk, self._hasher = accounts, bulk, hasher
        self._ids, self._clock, self._is_pulled = ids, clock, is_pulled
        self._pictures = pictures

    async def seed(self, users: int = DEMO_USERS, seed: int = PEOPLE_SEED) -> bool:
        """Load the demo world unless the demo user already exists. True if seeded."""
        if await self._accounts.credentials(DEMO_USER) is not None:
            return False
        rng = random.Random(seed)
        password_hash = self._hasher.hash(DEMO_PASSWORD)
        people = demo_people(users, seed)
        new_users = [
            NewUser(self._ids.next_id(), person.username, person.display_name, password_hash)
            for person in people
        ]
        ids = [user.id for user in new_users]
        edges = _follow_graph(rng, ids)
        await self._bulk.load(new_users, edges, self._clock(), self._is_pulled)
        world = _World(ids, people, edges)
        await self._post_history(rng, world)
        await self._pictures.add(rng, world.members())
        return True

    async def _post_history(self, rng: random.Random, world: _World) -> None:
        """Three days of posts, minted with back-dated IDs (an ID carries its time), with
        likes and comments, in one bulk transaction."""
        ids = world.ids
        start_ms = int((self._clock() - timedelta(days=3)).timestamp() * 1000)
        span_ms = 3 * 24 * 3600 * 1000
        stamps = sorted(start_ms + rng.randrange(span_ms) for _ in range(len(ids) * 3))
        clock = iter(stamps)
        minted = IdGenerator(worker_id=1023, clock_ms=lambda: next(clock))
        posts = []
        for _ in stamps:
            post_id, author = minted.next_id(), rng.choice(ids)
            visibility = Visibility.FOLLOWERS if rng.random() < 0.1 else Visibility.PUBLIC
            text = world.text(rng, author)
            posts.append(Post(post_id, author, text, visibility, created_at_of(post_id)))
        likes, comments = [], []
        for post in rng.sample(posts, len(posts) // 2):
            likes += [(post.id, user_id) for user_id in rng.sample(ids, rng.randint(1, 12))]
            if rng.random() < 0.3:
                author, comment_id = rng.choice(ids), self._ids.next_id()
                reply = demo_reply(rng, world.language[author])
                comments.append(Comment(comment_id, post.id, author, reply, self._clock()))
        await self._bulk.load_history(posts, likes, comments, self._clock())


class _World:
    """The seeded people by ID: their language and whom they follow (to mention)."""

    def __init__(self, ids: list[int], people: list[Person], edges: list[tuple[int, int]]):
        self.ids = ids
        self.language = {user: person.language for user, person in zip(ids, people, strict=True)}
        self.username = {user: person.username for user, person in zip(ids, people, strict=True)}
        self.id_of = {name: user for user, name in self.username.items()}
        self.follows: dict[int, list[str]] = {}
        for follower, followee in edges:
            self.follows.setdefault(follower, []).append(self.username[followee])

    def text(self, rng: random.Random, author: int) -> str:
        friends = self.follows.get(author, [])[:20]
        return demo_text(rng, self.language[author], friends)

    def members(self) -> list[tuple[int, str]]:
        """Everyone, the demo account and whom it follows first (a first look shows them)."""
        demo = self.ids[0]
        followed = {self.id_of[name] for name in self.follows.get(demo, [])}
        ordered = [demo, *sorted(followed), *(u for u in self.ids[1:] if u not in followed)]
        return [(user, self.language[user]) for user in ordered]


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
    people = demo_people(DEMO_USERS, PEOPLE_SEED)[1:]
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_SECONDS)
            return
        person = rng.choice(people)
        credentials = await accounts.credentials(person.username)
        if credentials is not None:
            text = demo_text(rng, person.language)
            await publish(credentials.user_id, text, [], Visibility.PUBLIC, None)
