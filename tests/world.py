"""A test world over the HTTP API: users who post, follow and read their feeds."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import httpx

from feedloom.bootstrap import Feedloom

PASSWORD = "correct horse battery"
_names = itertools.count(1)


@dataclass
class User:
    id: str
    username: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class World:
    def __init__(self, client: httpx.AsyncClient, feedloom: Feedloom) -> None:
        self.client = client
        self.feedloom = feedloom

    async def user(self, name: str | None = None) -> User:
        username = name or f"user_{next(_names)}"
        created = await self.client.post(
            "/v1/accounts",
            json={"username": username, "password": PASSWORD, "display_name": username},
        )
        assert created.status_code == 201, created.text
        session = await self.client.post(
            "/v1/sessions", json={"username": username, "password": PASSWORD}
        )
        assert session.status_code == 201, session.text
        return User(created.json()["id"], username, session.json()["token"])

    async def post(self, author: User, text: str = "hello", **body: Any) -> str:
        response = await self.client.post(
            "/v1/posts", json={"text": text, **body}, headers=author.auth
        )
        assert response.status_code == 201, response.text
        post_id: str = response.json()["post_id"]
        return post_id

    async def follow(self, follower: User, followee: User) -> None:
        response = await self.client.put(f"/v1/users/{followee.id}/follow", headers=follower.auth)
        assert response.status_code == 200, response.text

    async def feed(self, reader: User, **params: Any) -> dict[str, Any]:
        response = await self.client.get("/v1/feed", params=params, headers=reader.auth)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    async def feed_ids(self, reader: User, **params: Any) -> list[str]:
        return [item["post_id"] for item in (await self.feed(reader, **params))["items"]]

    async def all_feed_ids(self, reader: User, limit: int = 5) -> list[str]:
        """Page through the whole feed."""
        ids: list[str] = []
        cursor = None
        while True:
            params: dict[str, Any] = {"limit": limit}
            if cursor:
                params["cursor"] = cursor
            page = await self.feed(reader, **params)
            ids.extend(item["post_id"] for item in page["items"])
            cursor = page["next_cursor"]
            if not cursor:
                return ids

    async def settle(self) -> None:
        """Let the relay and fan-out workers finish everything queued."""
        await self.feedloom.services.worker.process_pending()
        await self.feedloom.services.worker.flush_counts()
