"""Dependencies of the app endpoints (/v1/apps/…): the API key's app, held to a scope,
and the user an external ID in the path names (docs/INTEGRATION.md).

Each request a key authenticates is charged to the app's rate limit and audited
(write/apps.py), as `METHOD /route/template`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Path, Request

from feedloom.api.deps import bearer_token, feedloom_of
from feedloom.bootstrap.apps import AppServices
from feedloom.domain.apps import EXTERNAL_ID_PATTERN, MAX_EXTERNAL_ID, AppCaller, Scope
from feedloom.domain.errors import NotFound
from feedloom.domain.ids import ID_PATTERN, parse_id


def app_services(request: Request) -> AppServices:
    apps: AppServices = feedloom_of(request).services.apps
    return apps


async def _apps(request: Request) -> AppServices:
    return app_services(request)


def _action(request: Request) -> str:
    route = request.scope.get("route")
    template = getattr(route, "path", request.url.path)
    return f"{request.method} {template}"[:160]


def app_with(scope: Scope) -> Callable[[Request], Awaitable[AppCaller]]:
    async def caller(request: Request) -> AppCaller:
        found = await app_services(request).keys.caller(bearer_token(request), _action(request))
        found.require(scope)
        request.state.app_caller = found  # for a second external ID in the path
        return found

    return caller


ExternalId = Annotated[
    str,
    Path(
        description="the app's own ID for the user",
        max_length=MAX_EXTERNAL_ID,
        json_schema_extra={"pattern": EXTERNAL_ID_PATTERN},
    ),
]


def acting_user(scope: Scope) -> Callable[..., Awaitable[int]]:
    """The user the path's external ID names, for a key with `scope`: 404 when the
    app has no such user."""
    check = app_with(scope)

    async def user(request: Request, external_id: ExternalId) -> int:
        caller = await check(request)
        return await app_services(request).links.user_of(caller.app_id, external_id)

    return user


AppsDep = Annotated[AppServices, Depends(_apps)]
UsersWriter = Annotated[AppCaller, Depends(app_with(Scope.USERS_WRITE))]
GraphWriter = Annotated[AppCaller, Depends(app_with(Scope.GRAPH_WRITE))]
ActingPoster = Annotated[int, Depends(acting_user(Scope.POSTS_WRITE))]
ActingFollower = Annotated[int, Depends(acting_user(Scope.GRAPH_WRITE))]
ActingReader = Annotated[int, Depends(acting_user(Scope.FEEDS_READ))]
WebhooksManager = Annotated[AppCaller, Depends(app_with(Scope.WEBHOOKS_MANAGE))]


async def webhook_id_path(
    webhook_id: Annotated[
        str,
        Path(description="webhook ID (decimal string)", json_schema_extra={"pattern": ID_PATTERN}),
    ],
) -> int:
    try:
        return parse_id(webhook_id)
    except ValueError as error:
        raise NotFound(f"no webhook with id {webhook_id!r}") from error


WebhookId = Annotated[int, Depends(webhook_id_path)]
