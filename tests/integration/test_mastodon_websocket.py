"""The WebSocket stream of the Mastodon-compatible API over a real server: subscribe to
`user`, get an `update` whose payload is the Status JSON as a string; a token outside
the read scopes, or none, is refused at the handshake."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.api.mastodon.oauth import bearer, token_for
from tests.integration.served import served
from tests.world import World

EVENT_WAIT_S = 60.0


async def test_a_subscribed_socket_gets_each_new_home_entry(app_settings: Settings) -> None:
    app = create_app(app_settings)
    async with served(app, app_settings) as url, httpx.AsyncClient(base_url=url) as client:
        world = World(client, app.state.feedloom)
        reader, author = await world.user(), await world.user()
        token = await token_for(client, reader)
        followed = await client.post(f"/api/v1/accounts/{author.id}/follow", headers=bearer(token))
        assert followed.status_code == 200
        socket_url = url.replace("http", "ws", 1) + "/api/v1/streaming"
        async with websockets.connect(socket_url, subprotocols=[token]) as socket:  # type: ignore[list-item]
            await socket.send(json.dumps({"type": "subscribe", "stream": "user"}))
            await asyncio.sleep(0.5)  # the subscription listens before the post is made
            post_id = await world.post(author, "over the socket")
            async with asyncio.timeout(EVENT_WAIT_S):
                while True:
                    event = json.loads(await socket.recv())
                    status = json.loads(event["payload"])
                    if event["event"] == "update" and status["id"] == post_id:
                        break
        assert event["stream"] == ["user"]
        assert status["account"]["id"] == author.id
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(socket_url + "?access_token=nonsense"):
                pass
