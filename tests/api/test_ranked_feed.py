"""The ranked home feed over HTTP, on every feedloom set: choosing the order, feed
sessions that never repeat or skip, and their expiry (explain, scoring and the fallback
to time order: test_ranked_feed_scoring.py)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from feedloom.domain.cursors import SessionCursor, encode_cursor
from tests.api.ranked import (
    RANKED,
    generous_ranker_budget,
    get_feed,
    ids,
    like,
    ranked_session,
    reader_of,
)
from tests.world import World

ALL_ON = ("like", "reply", "mention", "repost", "quote", "follow", "moderation")


@pytest.fixture(autouse=True)
def _generous_ranker_budget(world: World) -> None:
    generous_ranker_budget(world)


async def test_both_orders_serve_the_same_posts_and_say_which_order_they_used(
    world: World,
) -> None:
    reader, _ = await reader_of(world, authors=3, posts_each=4)
    chronological = await world.all_feed_ids(reader, limit=5)
    assert chronological == sorted(chronological, key=int, reverse=True)
    assert (await world.feed(reader))["order"] == "chronological"  # the shipped default
    assert sorted(await ranked_session(world, reader, limit=5)) == sorted(chronological)


async def test_the_account_setting_picks_the_default_order_and_the_request_overrides_it(
    world: World,
) -> None:
    reader, _ = await reader_of(world, authors=2, posts_each=2)
    settings = await world.client.get("/v1/me/settings", headers=reader.auth)
    assert settings.json() == {
        "feed_order": None,
        "effective_feed_order": "chronological",
        "notifications": dict.fromkeys(ALL_ON, True),
    }

    chosen = await world.client.put(
        "/v1/me/settings", json={"feed_order": "ranked"}, headers=reader.auth
    )
    assert chosen.json() == {
        "feed_order": "ranked",
        "effective_feed_order": "ranked",
        "notifications": dict.fromkeys(ALL_ON, True),
    }
    assert (await world.feed(reader))["order"] == "ranked"
    assert (await world.feed(reader, order="chronological"))["order"] == "chronological"

    await world.client.put("/v1/me/settings", json={"feed_order": None}, headers=reader.auth)
    assert (await world.feed(reader))["order"] == "chronological"
    refused = await world.client.put(
        "/v1/me/settings", json={"feed_order": "sideways"}, headers=reader.auth
    )
    assert refused.status_code == 422


async def test_a_session_paged_to_the_end_never_repeats_or_skips_while_scores_change(
    world: World,
) -> None:
    reader, followed = await reader_of(world, authors=3, posts_each=6)
    expected = await world.all_feed_ids(reader, limit=50)
    fan = await world.user()
    page = await world.feed(reader, **RANKED, limit=4)
    served, late_posts = ids(page), []
    while page["next_cursor"]:
        # Between pages: the oldest unserved posts gain likes (from the reader too, so
        # affinity moves), and new posts arrive: re-ranking now would reorder everything.
        unserved = [post_id for post_id in expected if post_id not in served]
        for post_id in unserved[-2:]:
            await like(world, fan, post_id)
            await like(world, reader, post_id)
        late_posts.append(await world.post(followed[0], "late"))
        await world.settle()
        page = await world.feed(reader, cursor=page["next_cursor"], limit=4)
        served += ids(page)
    assert len(served) == len(set(served)), "a post was served twice"
    assert sorted(served) == sorted(expected), "a post was skipped (or a late one slipped in)"
    assert set(late_posts) <= set(ids(await world.feed(reader, **RANKED, limit=50)))


async def test_a_post_deleted_mid_session_is_dropped_from_its_page_not_replaced(
    world: World,
) -> None:
    reader, followed = await reader_of(world, authors=2, posts_each=4)
    first = await world.feed(reader, **RANKED, limit=3)
    cursor = first["next_cursor"]
    second = ids(await world.feed(reader, cursor=cursor, limit=3))
    doomed = second[1]
    post = (await world.feedloom.stores.posts.posts([int(doomed)]))[int(doomed)]
    author = next(user for user in followed if user.id == str(post.author_id))
    deleted = await world.client.delete(f"/v1/posts/{doomed}", headers=author.auth)
    assert deleted.status_code == 204

    again = await world.feed(reader, cursor=cursor, limit=3, explain="true")
    assert ids(again) == [second[0], second[2]]
    assert again["filtered"] == {"deleted": 1}
    third = ids(await world.feed(reader, cursor=again["next_cursor"], limit=3))
    assert not set(third) & {*ids(first), *second}


async def test_an_expired_session_goes_on_in_time_order_below_what_it_served(
    world: World,
) -> None:
    reader, _ = await reader_of(world, authors=2, posts_each=3)
    ranked = world.feedloom.services.home_feed.ranked
    ranked.config = replace(ranked.config, session_ttl_s=1)
    first = await world.feed(reader, **RANKED, limit=2)
    await asyncio.sleep(1.2)
    went_on = await world.feed(reader, cursor=first["next_cursor"], limit=10)
    assert went_on["order"] == "chronological" and went_on["fallback"] == "session_lost"
    oldest_served = min(int(post_id) for post_id in ids(first))
    assert ids(went_on) and all(int(post_id) < oldest_served for post_id in ids(went_on))
    assert ids(went_on) == sorted(ids(went_on), key=int, reverse=True)
    assert not set(ids(went_on)) & set(ids(first))


async def test_a_cursor_without_a_way_on_or_someone_elses_is_a_410(world: World) -> None:
    """A session cursor of the old form (no oldest post) whose session is gone cannot go
    on; another reader's cursor is refused, not continued in this reader's feed."""
    reader, _ = await reader_of(world, authors=2, posts_each=2)
    first = await world.feed(reader, **RANKED, limit=2)
    forged = encode_cursor(SessionCursor(session="not-a-session", offset=2))
    gone = await get_feed(world, reader, cursor=forged)
    assert gone.status_code == 410
    assert gone.headers["content-type"] == "application/problem+json"
    problem = gone.json()
    assert problem["type"].endswith("/feed-session-expired")
    assert "reload the top" in problem["detail"]
    stranger = await world.user()
    assert (await get_feed(world, stranger, cursor=first["next_cursor"])).status_code == 410


async def test_a_cursor_continues_the_order_it_was_issued_in(world: World) -> None:
    reader, _ = await reader_of(world, authors=2, posts_each=3)
    keyset = (await world.feed(reader, limit=2))["next_cursor"]
    session = (await world.feed(reader, **RANKED, limit=2))["next_cursor"]
    for cursor, order, continued in (
        (keyset, "ranked", "chronological"),  # e.g. after a ranker fallback
        (session, "chronological", "ranked"),
        (session, None, "ranked"),
        (keyset, None, "chronological"),
    ):
        params = {"cursor": cursor, **({"order": order} if order else {})}
        assert (await world.feed(reader, **params))["order"] == continued


async def test_ranked_pages_time_each_stage_including_rank(world: World) -> None:
    reader, _ = await reader_of(world, authors=2, posts_each=2)
    response = await get_feed(world, reader, **RANKED)
    stages = [part.split(";")[0] for part in response.headers["server-timing"].split(", ")]
    assert {"viewer", "candidates", "features", "rank", "hydrate", "total"} <= set(stages)
