"""The Mastodon-compatible client API (docs/MASTODON_API.md): a second entry point over
the same use cases as /v1. Two sub-applications, mounted at /api and /oauth, so that
their errors take Mastodon's shape (`{"error": "…"}`) and /v1's stay problem+json, and
the OpenAPI document stays /v1's; /.well-known/oauth-authorization-server is a route of
the main app."""

from __future__ import annotations

from fastapi import FastAPI

from feedloom.api.mastodon import (
    accounts,
    instance,
    markers,
    media,
    notifications,
    oauth_routes,
    search,
    statuses,
    streaming,
    tags,
)
from feedloom.api.mastodon.errors import install_errors


def _sub_app() -> FastAPI:
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    install_errors(app)
    return app


def install_mastodon(app: FastAPI) -> list[FastAPI]:
    """Mount the surface on `app`; the sub-applications, whose state must be given the
    composition root when the app's lifespan has built it."""
    api, oauth = _sub_app(), _sub_app()
    routers = (
        statuses.router,
        accounts.router,
        media.router,
        markers.router,
        notifications.v1,
        notifications.v2,
        search.router,
        tags.router,
        streaming.router,
        instance.router,
        oauth_routes.apps,
    )
    for router in routers:
        api.include_router(router)
    oauth.include_router(oauth_routes.oauth)
    app.include_router(oauth_routes.well_known)
    app.mount("/api", api)
    app.mount("/oauth", oauth)
    return [api, oauth]
