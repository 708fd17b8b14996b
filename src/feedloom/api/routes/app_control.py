"""`feedloom apps …` inside a running embedded server (api/control.py): the key and
app caches it invalidates live in that server's memory."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from feedloom.api.deps import FeedloomDep
from feedloom.domain.apps import App, parse_scopes
from feedloom.write.apps import AppOptions

router = APIRouter(prefix="/control/apps")


class AppRequest(BaseModel):
    name: str
    scopes: str
    algorithms: list[str] = Field(default_factory=lambda: ["HS256"])
    jwks: str | None = None
    jwks_url: str | None = None
    create_users: bool = False


@router.post("")
async def create_app(request: AppRequest, feedloom: FeedloomDep) -> Any:
    options = AppOptions(
        tuple(request.algorithms), request.jwks, request.jwks_url, request.create_users
    )
    made = await feedloom.services.apps.admin.create(
        request.name, parse_scopes(request.scopes), options
    )
    return {**app_json(made.app), "api_key": made.api_key, "token_secret": made.app.token_secret}


@router.get("")
async def list_apps(feedloom: FeedloomDep) -> Any:
    return [app_json(app) for app in await feedloom.services.apps.admin.list()]


@router.post("/{app_id}/rotate")
async def rotate(app_id: int, feedloom: FeedloomDep) -> Any:
    return {"api_key": await feedloom.services.apps.admin.rotate(app_id)}


@router.post("/{app_id}/revoke")
async def revoke(app_id: int, feedloom: FeedloomDep) -> Any:
    return app_json(await feedloom.services.apps.admin.revoke(app_id))


def app_json(app: App) -> dict[str, Any]:
    """An app as `feedloom apps list --json` prints it (never its key or secret)."""
    return {
        "app_id": str(app.app_id),
        "name": app.name,
        "scopes": sorted(app.scopes),
        "algorithms": list(app.algorithms),
        "jwks_url": app.jwks_url,
        "create_users": app.create_users,
        "created_at": app.created_at.isoformat(),
        "revoked_at": app.revoked_at.isoformat() if app.revoked_at else None,
    }
