"""A warm feed read touches no durable store: the bearer token, the reader's relations,
read-your-writes and liked_by_me all come from the caches, which every write keeps
current (or refuses to report success), on every backend set."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from redis.asyncio.client import Pipeline
from sqlalchemy import event
from sqlalchemy.engine import Engine

from feedloom.adapters.redis.wire import NearCache
from feedloom.adapters.redis.wire.autopipeline import AutoPipelinedRedis, Command
from feedloom.domain.errors import Unavailable
from feedloom.read.timing import StageTimer
from tests.world import User, World


@contextlib.contextmanager
def statements() -> Iterator[list[str]]:
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        seen.append(sql)

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)


async def warm_reader(world: World) -> tuple[User, User, str]:
    reader, author = await world.user(), await world.user()
    await world.follow(reader, author)
    await world.feed(reader)
    post_id = await world.post(author, "first")
    await world.settle()
    await world.client.put(f"/v1/posts/{post_id}/like", headers=reader.auth)
    await world.settle()
    await world.feed(reader)  # fills every cache the read uses
    assert (await world.client.get("/v1/me", headers=reader.auth)).status_code == 200
    return reader, author, post_id


async def test_a_warm_feed_read_issues_no_durable_store_statement(world: World) -> None:
    reader, _, post_id = await warm_reader(world)
    with statements() as seen:
        page = await world.feed(reader)
    assert seen == []
    assert [(i["post_id"], i["liked_by_me"]) for i in page["items"]] == [(post_id, True)]


async def test_your_own_post_is_in_your_feed_at_once_without_a_query(world: World) -> None:
    reader, _, _ = await warm_reader(world)
    own = await world.post(reader, "mine")  # no fan-out has run
    with statements() as seen:
        ids = await world.feed_ids(reader)
    assert ids[0] == own
    assert seen == []


async def test_a_like_and_an_unlike_show_in_liked_by_me_on_the_next_read(world: World) -> None:
    reader, author, first = await warm_reader(world)
    second = await world.post(author, "second")
    await world.settle()
    liked = await world.client.put(f"/v1/posts/{second}/like", headers=reader.auth)
    assert liked.status_code == 200
    items = (await world.feed(reader))["items"]
    assert {i["post_id"]: i["liked_by_me"] for i in items} == {first: True, second: True}
    await world.client.delete(f"/v1/posts/{first}/like", headers=reader.auth)
    items = (await world.feed(reader))["items"]
    assert {i["post_id"]: i["liked_by_me"] for i in items} == {first: False, second: True}


async def test_a_revoked_token_is_refused_on_the_very_next_request(world: World) -> None:
    reader, _, _ = await warm_reader(world)
    assert (await world.client.delete("/v1/sessions/current", headers=reader.auth)).status_code
    response = await world.client.get("/v1/feed", headers=reader.auth)
    assert response.status_code == 401


async def test_a_relation_change_whose_cache_update_fails_is_not_reported_done(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis unreachable during the invalidation (what the degraded wrapper raises):
    the follow is stored but answered 503, and the retry finishes it."""
    reader, _, _ = await warm_reader(world)
    newcomer = await world.user()
    newcomer_post = await world.post(newcomer, "hello")
    await world.settle()
    viewers = world.feedloom.caches.viewers

    async def unreachable(keys: Sequence[str]) -> None:
        raise Unavailable("the cache is unreachable; retry the request to finish it")

    monkeypatch.setattr(viewers, "invalidate", unreachable)
    failed = await world.client.put(f"/v1/users/{newcomer.id}/follow", headers=reader.auth)
    assert failed.status_code == 503
    assert failed.headers["content-type"] == "application/problem+json"
    assert int(failed.headers["retry-after"]) >= 1
    monkeypatch.undo()

    retried = await world.client.put(f"/v1/users/{newcomer.id}/follow", headers=reader.auth)
    assert retried.status_code == 200
    assert newcomer_post in await world.feed_ids(reader)


@contextlib.contextmanager
def redis_round_trips() -> Iterator[list[list[str]]]:
    """Each batch the auto-pipelining client sends to Redis as one round trip, and each
    pipeline sent past it, as its command names."""
    sent: list[list[str]] = []
    send, batch = Pipeline.execute, AutoPipelinedRedis._round_trip

    async def execute(self: Pipeline, *args: Any, **kwargs: Any) -> Any:
        sent.append([str(command[0][0]) for command in self.command_stack])
        return await send(self, *args, **kwargs)

    async def round_trip(self: AutoPipelinedRedis, commands: list[Command]) -> list[Any]:
        sent.append([str(args[0]) for args, _ in commands])
        return await batch(self, commands)

    Pipeline.execute = execute  # type: ignore[method-assign]
    AutoPipelinedRedis._round_trip = round_trip  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        Pipeline.execute = send  # type: ignore[method-assign]
        AutoPipelinedRedis._round_trip = batch  # type: ignore[method-assign]


@pytest.mark.parametrize("backend_name", ["production"])
async def test_a_warm_page_reads_redis_in_at_most_two_round_trips_and_then_one(
    world: World,
) -> None:
    """The read path reads viewer → candidates → views in turn, each step's lookups in
    one round trip, also for a reader who follows a pulled account (whose list joins
    the candidates'). Right after the reader's relations changed (their record was just
    built again, and kept) that is two; the same page again is one: the reader's relations,
    views, counts, likes and viewer estimates are all kept in process."""
    reader, _, _ = await warm_reader(world)
    star = await world.user()
    for fan in [reader, *[await world.user() for _ in range(5)]]:  # > pull_above (4)
        await world.follow(fan, star)
    await world.post(star, "from a pulled account")
    await world.settle()
    home_feed = world.feedloom.services.home_feed
    scope = world.feedloom.request_scope  # as the API opens it around each request
    with scope():
        await home_feed.page(int(reader.id), 20, None, StageTimer())
    with redis_round_trips() as sent, scope():
        page = await home_feed.page(int(reader.id), 20, None, StageTimer())
    assert [item.source for item in page.items].count("pulled") == 1
    # The candidates, then the views: the relations record the last read built is kept
    # by the process that built it; a view it filled (the star's profile) is not.
    assert len(sent) <= 2, sent
    assert all(item.views >= 1 for item in page.items)  # the reader's own view counted
    # Read again, nothing changed: every view, count, like and viewer estimate is kept
    # in process (adapters/redis/wire/near_cache.py), fenced by one PING as the read began.
    with redis_round_trips() as sent, scope():
        again = await home_feed.page(int(reader.id), 20, None, StageTimer())
    assert len(sent) == 1, sent
    assert again.items == page.items
    # A like elsewhere changes only the reader's likes record, read again beside the
    # page's views: one more round trip.
    stranger = await world.user()
    elsewhere = await world.post(stranger, "not in the reader's feed")
    await world.settle()
    liked = await world.client.put(f"/v1/posts/{elsewhere}/like", headers=reader.auth)
    assert liked.status_code in (200, 201, 204), liked.text
    await world.settle()
    with redis_round_trips() as sent, scope():
        after_like = await home_feed.page(int(reader.id), 20, None, StageTimer())
    assert len(sent) == 2, sent
    assert after_like.items == page.items


@contextlib.contextmanager
def near_cache_fences() -> Iterator[list[int]]:
    """Each fence a lookup of the near cache asks for (adapters/redis/wire/near_cache.py)."""
    asked: list[int] = []
    fence = NearCache.fence

    def counted(self: NearCache) -> Any:
        asked.append(1)
        return fence(self)

    NearCache.fence = counted  # type: ignore[method-assign]
    try:
        yield asked
    finally:
        NearCache.fence = fence  # type: ignore[method-assign]


@pytest.mark.parametrize("backend_name", ["production"])
async def test_a_warm_profile_page_post_and_trending_page_each_fence_once(world: World) -> None:
    """Each is one request (the scope the API opens around it): its lookups share the
    fence it sent as it began, instead of each sending one when it first looks up what
    is kept."""
    reader, author, post_id = await warm_reader(world)  # the reader liked the post
    services = world.feedloom.services
    author_posts, trending = services.author_posts, services.trending
    scope = world.feedloom.request_scope  # as the API opens it around each request
    for _ in range(2):  # the second: everything kept
        with scope():
            page = await author_posts.page(int(reader.id), int(author.id), 20, None)
        with scope():
            item = await author_posts.post(int(reader.id), int(post_id))
        with scope():
            trends = await trending.page(int(reader.id), "1h", 20)
    assert [trend.post.id for trend in trends] == [int(post_id)]
    with near_cache_fences() as fences:
        with scope():
            assert await author_posts.page(int(reader.id), int(author.id), 20, None) == page
        with scope():
            assert await author_posts.post(int(reader.id), int(post_id)) == item
        with scope():
            assert await trending.page(int(reader.id), "1h", 20) == trends
    assert fences == [1, 1, 1]


@pytest.mark.parametrize("backend_name", ["production"])
async def test_a_read_request_sends_one_fence_however_many_lookups_it_makes(world: World) -> None:
    """The API opens the near cache's read scope once per GET (api/app.py `FreshReads`):
    the relations, views, counts, likes and viewer estimates a page looks up all wait on
    the one fence sent as the request began."""
    reader, author, post_id = await warm_reader(world)
    await world.feed(reader)
    with near_cache_fences() as fences:
        page = await world.feed(reader)
        profile = await world.client.get(f"/v1/users/{author.id}/posts", headers=reader.auth)
    assert [item["post_id"] for item in page["items"]] == [post_id]
    assert profile.status_code == 200
    assert fences == [1, 1]
