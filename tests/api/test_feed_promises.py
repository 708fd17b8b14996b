"""The brief's correctness promises for the home feed, one test each."""

from __future__ import annotations

from feedloom.api.app import create_app
from tests.world import World


async def test_a_deleted_post_is_gone_on_the_next_read(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    keep, gone = await world.post(alice, "keep"), await world.post(alice, "gone")
    await world.settle()
    assert await world.feed_ids(bob) == [gone, keep]
    await world.client.delete(f"/v1/posts/{gone}", headers=alice.auth)
    assert await world.feed_ids(bob) == [keep]  # no settle: the tombstone alone hides it


async def test_followers_only_posts_never_reach_a_non_follower(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.follow(carol, alice)
    for reader in (bob, carol):
        await world.feed(reader)
    private = await world.post(alice, "friends only", visibility="followers")
    await world.settle()
    await world.client.delete(f"/v1/users/{alice.id}/follow", headers=carol.auth)
    assert await world.feed_ids(bob) == [private]
    assert await world.feed_ids(carol) == []


async def test_a_pulled_authors_posts_are_merged_at_read_time(world: World) -> None:
    star = await world.user()
    fans = [await world.user() for _ in range(6)]  # > pull_above (4) in test settings
    for fan in fans:
        await world.feed(fan)
        await world.follow(fan, star)
    assert (await world.client.get("/v1/me", headers=star.auth)).json()["pulled"] is True
    writes_before = world.feedloom.metrics.fanout_timeline_writes._value.get()
    post_id = await world.post(star, "to the many")
    await world.settle()
    assert world.feedloom.metrics.fanout_timeline_writes._value.get() == writes_before
    for fan in fans:
        assert await world.feed_ids(fan) == [post_id]


async def test_hysteresis_keeps_a_star_pulled_until_it_drops_below_push_below(world: World) -> None:
    star = await world.user()
    fans = [await world.user() for _ in range(5)]
    for fan in fans:
        await world.follow(fan, star)
    assert (await world.client.get("/v1/me", headers=star.auth)).json()["pulled"] is True
    await world.client.delete(f"/v1/users/{star.id}/follow", headers=fans[0].auth)  # 4 left
    assert (await world.client.get("/v1/me", headers=star.auth)).json()["pulled"] is True
    await world.client.delete(f"/v1/users/{star.id}/follow", headers=fans[1].auth)
    await world.client.delete(f"/v1/users/{star.id}/follow", headers=fans[2].auth)  # 2 left
    assert (await world.client.get("/v1/me", headers=star.auth)).json()["pulled"] is False


async def test_an_inactive_follower_is_skipped_then_rebuilt_on_return(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feedloom.caches.timelines.drop(int(bob.id))  # bob went inactive: timeline dropped
    writes_before = world.feedloom.metrics.fanout_timeline_writes._value.get()
    post_id = await world.post(alice)
    await world.settle()
    assert world.feedloom.metrics.fanout_timeline_writes._value.get() == writes_before
    assert await world.feedloom.caches.timelines.read(int(bob.id), None, 10) is None
    rebuilds_before = world.feedloom.metrics.timeline_rebuilds._value.get()
    assert await world.feed_ids(bob) == [post_id]
    assert world.feedloom.metrics.timeline_rebuilds._value.get() == rebuilds_before + 1
    assert await world.feedloom.caches.timelines.read(int(bob.id), None, 10) == [int(post_id)]


async def test_a_page_stays_full_when_items_are_filtered(world: World) -> None:
    alice, bob, mallory = await world.user(), await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.follow(bob, mallory)
    await world.feed(bob)
    kept = [await world.post(alice, f"a{n}") for n in range(3)]
    for n in range(10):
        await world.post(mallory, f"m{n}")
    await world.settle()
    await world.client.put(f"/v1/users/{mallory.id}/mute", headers=bob.auth)
    assert await world.feed_ids(bob, limit=3) == kept[::-1]


async def test_scrolling_continues_past_the_end_of_the_cached_timeline(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    length = world.feedloom.settings.timeline_length
    posted = [await world.post(alice, f"p{n}") for n in range(length + 15)]
    await world.settle()
    cached = await world.feedloom.caches.timelines.read(int(bob.id), None, length * 2)
    assert cached is not None and len(cached) == length
    assert await world.all_feed_ids(bob, limit=20) == posted[::-1]


async def test_a_restart_loses_timelines_and_rebuilds_the_same_feed(world: World) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.follow(bob, carol)
    await world.feed(bob)
    for n in range(6):
        await world.post(alice if n % 2 else carol, f"n{n}")
    await world.settle()
    before = await world.all_feed_ids(bob, limit=4)
    settings = world.feedloom.settings
    if settings.redis_url is None:  # embedded: a new process has empty in-process caches
        from tests.lifespan import lifespan_of

        restarted = create_app(settings, inline_worker=False)
        async with lifespan_of(restarted):
            import httpx

            transport = httpx.ASGITransport(app=restarted)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                after = World(client, restarted.state.feedloom)
                assert await after.feedloom.caches.timelines.read(int(bob.id), None, 5) is None
                assert await after.all_feed_ids(bob, limit=4) == before
