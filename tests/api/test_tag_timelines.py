"""Followed tags read from the tags' cached lists (lookups/tag_timelines.py), on every
backend: the same posts as the durable store's query, rebuilt when lost, kept by the
fan-out, deletes and edits, and no SQL statement on a warm read."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.read.timing import StageTimer
from tests.api.test_warm_reads import redis_round_trips, statements
from tests.servers import REDIS_URL
from tests.world import User, World


async def _follow(world: World, reader: User, *tags: str) -> None:
    for tag in tags:
        response = await world.client.put(f"/v1/tags/{tag}/follow", headers=reader.auth)
        assert response.status_code == 200, response.text


async def _lose_tag_lists(world: World) -> None:
    """What a flushed Redis (or a restarted embedded process) does to the lists."""
    settings = world.feedloom.settings
    if settings.redis_url is None:
        world.feedloom.caches.tag_timelines.clear()  # type: ignore[attr-defined]
        return
    client = Redis.from_url(REDIS_URL)
    try:
        names = [name async for name in client.scan_iter(f"{settings.redis_prefix}:tg:*")]
        if names:
            await client.unlink(*names)
    finally:
        await client.aclose()


async def _feed_pages(world: World, reader: User) -> list[list[tuple[str, object]]]:
    pages: list[list[tuple[str, object]]] = []
    cursor = None
    while True:
        params: dict[str, int | str] = {"limit": 4, **({"cursor": cursor} if cursor else {})}
        page = (await world.client.get("/v1/feed", params=params, headers=reader.auth)).json()
        pages.append([(item["post_id"], item["reason"]) for item in page["items"]])
        cursor = page.get("next_cursor")
        if not cursor:
            return pages


async def test_the_cached_lists_give_what_the_store_gives_at_every_cursor(world: World) -> None:
    """More posts than a list holds (20 in tests), so the deep pages come from the store;
    a post in two followed tags, a followers-only one, a deleted one, edits that drop and
    add a tag."""
    reader, friend = await world.user(), await world.user()
    strangers = [await world.user() for _ in range(3)]
    await world.follow(reader, friend)
    await _follow(world, reader, "alpha", "beta", "gamma")
    await world.feed(reader)  # the lists exist (empty) from now: the fan-out fills them
    texts = ["#alpha", "#beta", "#alpha #gamma", "#delta", "#beta #alpha", "none"]

    async def post(n: int) -> str:
        return await world.post(strangers[n % 3], f"{texts[n % len(texts)]} {n}")

    async def edit(n: int, text: str) -> None:
        response = await world.client.patch(
            f"/v1/posts/{posted[n]}", json={"text": text}, headers=strangers[n % 3].auth
        )
        assert response.status_code == 200, response.text

    posted = [await post(n) for n in range(40)]
    await world.post(strangers[0], "#alpha hidden", visibility="followers")
    await world.post(friend, "#beta by a friend")
    await world.settle()
    deleted = await world.client.delete(f"/v1/posts/{posted[36]}", headers=strangers[0].auth)
    assert deleted.status_code in (200, 204), deleted.text
    await edit(38, "#alpha only now")  # was "#alpha #gamma": gamma's list is dropped
    await edit(37, "#gamma")  # was "#beta"
    await world.settle()
    await world.feed(reader)  # the dropped lists are refilled
    posted += [await post(n) for n in range(40, 60)]
    await world.settle()
    await edit(45, "#gamma")  # was "#delta": joins gamma's list
    await world.settle()

    feedloom = world.feedloom
    length = feedloom.settings.author_timeline_length
    cached = TagTimelines(feedloom.caches.tag_timelines, feedloom.stores.tags, length)
    found = await feedloom.stores.tags.tags(["alpha", "beta", "gamma"])
    tag_ids = [tag.id for tag in found.values()]
    assert len(await feedloom.stores.tags.tag_post_ids(found["alpha"].id, None, 99)) > length
    assert (
        sorted(map(len, (await feedloom.caches.tag_timelines.read_many(tag_ids)).values()))[-1]
        == length
    )  # a cut list: pages below it come from the store
    for before in [None, *sorted({int(p) for p in posted}, reverse=True)]:
        for limit in (1, 4, 25):
            store = await feedloom.stores.tags.tagged_post_ids(tag_ids, before, limit)
            assert await cached.tagged_post_ids(tag_ids, before, limit) == store, (before, limit)

    pages = await _feed_pages(world, reader)
    assert sum(map(len, pages)) > 25
    await _lose_tag_lists(world)
    assert await feedloom.caches.tag_timelines.read_many(tag_ids) == {}
    assert await _feed_pages(world, reader) == pages  # rebuilt from the store
    assert set(await feedloom.caches.tag_timelines.read_many(tag_ids)) == set(tag_ids)


async def test_a_lost_tag_list_is_rebuilt_and_then_kept_by_the_fan_out(world: World) -> None:
    reader, stranger = await world.user(), await world.user()
    await _follow(world, reader, "lost")
    first = await world.post(stranger, "#lost one")
    await world.settle()
    assert await world.feed_ids(reader) == [first]
    await _lose_tag_lists(world)
    assert await world.feed_ids(reader) == [first]
    second = await world.post(stranger, "#lost two")
    await world.settle()
    assert await world.feed_ids(reader) == [second, first]


async def test_unfollowing_one_tag_drops_its_posts_on_the_next_read(world: World) -> None:
    reader, stranger = await world.user(), await world.user()
    await _follow(world, reader, "kept", "dropped")
    await world.feed(reader)
    kept = await world.post(stranger, "#kept")
    dropped = await world.post(stranger, "#dropped")
    await world.settle()
    assert await world.feed_ids(reader) == [dropped, kept]
    gone = await world.client.delete("/v1/tags/dropped/follow", headers=reader.auth)
    assert gone.json() == {"changed": True}
    assert await world.feed_ids(reader) == [kept]


async def test_a_warm_read_with_followed_tags_issues_no_sql_statement(world: World) -> None:
    reader, friend, stranger = await world.user(), await world.user(), await world.user()
    await world.follow(reader, friend)
    await _follow(world, reader, *(f"warm{n}" for n in range(5)))
    await world.feed(reader)
    posted = [await world.post(stranger, f"#warm{n}") for n in range(5)]
    posted.append(await world.post(friend, "no tag"))
    await world.settle()
    await world.feed(reader)  # fills every cache the read uses
    with statements() as seen:
        ids = await world.feed_ids(reader)
    assert seen == []
    assert ids == posted[::-1]


@pytest.mark.parametrize("backend_name", ["production"])
async def test_a_warm_read_with_five_followed_tags_reads_redis_in_one_round_trip(
    world: World,
) -> None:
    """The tags' lists are read in the candidates' round trip (one pipeline beside the
    home timeline's read): a page read again costs what it costs without tags."""
    reader, stranger = await world.user(), await world.user()
    await _follow(world, reader, *(f"trip{n}" for n in range(5)))
    await world.feed(reader)
    for n in range(5):
        await world.post(stranger, f"#trip{n}")
    await world.settle()
    home_feed = world.feedloom.services.home_feed
    scope = world.feedloom.request_scope
    for _ in range(2):
        with scope():
            await home_feed.page(int(reader.id), 20, None, StageTimer())
    with redis_round_trips() as sent, scope():
        page = await home_feed.page(int(reader.id), 20, None, StageTimer())
    assert len(page.items) == 5
    assert len(sent) == 1, sent
