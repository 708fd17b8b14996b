"""Apps in tests: one made through the use case, its key as a header, its users."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from feedloom.domain.apps import parse_scopes
from feedloom.write.apps import AppOptions
from tests.world import World

EVERY_SCOPE = "users:write,graph:write,posts:write,feeds:read,webhooks:manage"


@dataclass
class AppUnderTest:
    app_id: int
    key: str
    token_secret: str
    client: httpx.AsyncClient

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    async def put_user(self, external_id: str, username: str, **fields: Any) -> httpx.Response:
        body = {"username": username, **fields}
        return await self.client.put(f"/v1/apps/users/{external_id}", json=body, headers=self.auth)

    async def call(
        self, method: str, path: str, headers: dict[str, str] | None = None, **kwargs: Any
    ) -> httpx.Response:
        sent = {**self.auth, **(headers or {})}
        return await self.client.request(method, path, headers=sent, **kwargs)


async def make_app(
    world: World, scopes: str = EVERY_SCOPE, options: AppOptions | None = None
) -> AppUnderTest:
    admin = world.feedloom.services.apps.admin
    made = await admin.create("test app", parse_scopes(scopes), options)
    return AppUnderTest(made.app.app_id, made.api_key, made.app.token_secret, world.client)
