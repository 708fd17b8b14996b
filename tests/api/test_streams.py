"""GET /v1/streams/home: Server-Sent Events when a reader's home feed gains a post they
would see, on both backend sets (in-process bus; Redis pub/sub)."""

from __future__ import annotations

from dataclasses import replace

from fastapi import FastAPI

from tests.api.sse import open_stream
from tests.world import User, World

NOTICE_WITHIN_S = 2.0


async def test_a_followers_open_stream_gets_the_notice_within_2_s_of_fan_out(
    world: World, app: FastAPI
) -> None:
    reader, friend = await world.user(), await world.user()
    await world.follow(reader, friend)
    async with open_stream(app, "/v1/streams/home", {}, reader.auth) as stream:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        post_id = await world.post(friend)
        await world.settle()
        event = await stream.next_event(NOTICE_WITHIN_S)
    assert event["id"] == post_id
    assert event["data"] == f'{{"count":1,"newest_id":"{post_id}"}}'


async def test_a_muted_or_blocked_authors_post_sends_no_notice(world: World, app: FastAPI) -> None:
    reader, friend, muted, blocker = [await world.user() for _ in range(4)]
    for author in (friend, muted, blocker):
        await world.follow(reader, author)
    await world.client.put(f"/v1/users/{muted.id}/mute", headers=reader.auth)
    await world.client.put(f"/v1/users/{reader.id}/block", headers=blocker.auth)
    async with open_stream(app, "/v1/streams/home", {}, reader.auth) as stream:
        # The muted author's post still reaches the timeline (and a notice goes out):
        # the recount filters it, so the stream sends nothing for it.
        await world.post(muted, "muted")
        await world.post(blocker, "blocked")
        await world.settle()
        visible = await world.post(friend, "visible")
        await world.settle()
        event = await stream.next_event(NOTICE_WITHIN_S)
        assert event["id"] == visible
        assert [e["id"] for e in stream.events if e.get("event") == "new-posts"] == [visible]


async def test_ones_own_post_and_a_pulled_authors_post_are_notices_too(
    world: World, app: FastAPI
) -> None:
    reader, star = await world.user(), await world.user()
    for fan in [await world.user() for _ in range(5)]:  # above pull_above=4: pulled
        await world.follow(fan, star)
    await world.follow(reader, star)
    async with open_stream(app, "/v1/streams/home", {}, reader.auth) as stream:
        mine = await world.post(reader, "mine")
        await world.settle()
        assert (await stream.next_event(NOTICE_WITHIN_S))["id"] == mine
        pulled = await world.post(star, "from a big account")
        await world.settle()
        event = await stream.next_event(NOTICE_WITHIN_S)
    assert event["id"] == pulled and '"count":2' in event["data"]


async def ticket_of(world: World, user: User) -> str:
    response = await world.client.post("/v1/streams/tickets", headers=user.auth)
    assert response.status_code == 201, response.text
    assert response.json()["url"] == f"/v1/streams/home?ticket={response.json()['ticket']}"
    ticket: str = response.json()["ticket"]
    return ticket


async def test_an_eventsource_authenticates_with_a_ticket(world: World, app: FastAPI) -> None:
    reader = await world.user()
    ticket = await ticket_of(world, reader)
    async with open_stream(app, "/v1/streams/home", {"ticket": ticket}, {}) as stream:
        post_id = await world.post(reader)
        await world.settle()
        assert (await stream.next_event(NOTICE_WITHIN_S))["id"] == post_id
    forged = ticket[:-1] + ("0" if ticket[-1] != "0" else "1")
    for params in ({"ticket": forged}, {"ticket": "junk"}, {}):
        response = await world.client.get("/v1/streams/home", params=params)
        assert response.status_code == 401, params
        assert response.headers["content-type"] == "application/problem+json"


async def test_a_reconnect_with_last_event_id_gets_what_it_missed(
    world: World, app: FastAPI
) -> None:
    reader, friend = await world.user(), await world.user()
    await world.follow(reader, friend)
    seen = await world.post(friend, "seen")
    await world.settle()
    missed = await world.post(friend, "while away")
    await world.settle()
    params = {"since": seen}
    async with open_stream(app, "/v1/streams/home", params, reader.auth) as stream:
        event = await stream.next_event(NOTICE_WITHIN_S)
        assert (event["id"], '"count":1' in event["data"]) == (missed, True)
    headers = {**reader.auth, "Last-Event-ID": missed}
    async with open_stream(app, "/v1/streams/home", params, headers) as stream:
        newer = await world.post(friend, "newer")
        await world.settle()
        event = await stream.next_event(NOTICE_WITHIN_S)  # nothing re-sent before it
        assert event["id"] == newer and '"count":2' in event["data"]


async def test_a_quiet_stream_sends_heartbeats(world: World, app: FastAPI) -> None:
    reader = await world.user()
    stream_use_case = world.feedloom.services.home_stream
    stream_use_case.config = replace(stream_use_case.config, heartbeat_s=0.2)
    async with open_stream(app, "/v1/streams/home", {}, reader.auth) as stream:
        await stream.heartbeat(5.0)


async def test_streams_per_user_are_capped(world: World, app: FastAPI) -> None:
    reader = await world.user()
    stream_use_case = world.feedloom.services.home_stream
    stream_use_case.config = replace(stream_use_case.config, per_user=1, heartbeat_s=0.2)
    async with open_stream(app, "/v1/streams/home", {}, reader.auth) as stream:
        await stream.heartbeat(5.0)  # the first one is open
        second = await world.client.get("/v1/streams/home", headers=reader.auth)
        assert second.status_code == 429
        assert second.headers["retry-after"]
