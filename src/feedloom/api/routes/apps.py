"""The app endpoints that write users and the graph by the app's own IDs
(docs/INTEGRATION.md): upsert, erase, and the two batches. Parse, call, render."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from feedloom.api.app_deps import (
    AppsDep,
    ExternalId,
    GraphWriter,
    UsersWriter,
    WebhookId,
    WebhooksManager,
)
from feedloom.api.app_schemas import (
    AppUserIn,
    AppUserOut,
    AppUserRowIn,
    BatchOut,
    FollowRowIn,
    RowError,
    RowOut,
    WebhookCreated,
    WebhookIn,
    WebhookList,
    WebhookOut,
)
from feedloom.api.batch_rows import chunks, raw_rows
from feedloom.api.deps import feedloom_of
from feedloom.api.problems import problem_body
from feedloom.bootstrap.apps import AppServices
from feedloom.ports.webhooks import Webhook
from feedloom.write.app_follows import FollowRow
from feedloom.write.app_users import RowResult, UserFields
from feedloom.write.webhooks import Webhooks

router = APIRouter(prefix="/v1/apps", tags=["apps"])

BATCH_BODY = {
    "content": {
        "application/json": {"schema": {"type": "array", "items": {}}},
        "application/x-ndjson": {"schema": {"type": "string"}},
    },
    "required": True,
}


@router.put(
    "/users/{external_id}",
    response_model=AppUserOut,
    # Declared, so that a client generated from the document reads the created user.
    responses={201: {"model": AppUserOut, "description": "Created"}},
)
async def put_user(
    external_id: ExternalId,
    body: AppUserIn,
    app: UsersWriter,
    apps: AppsDep,
    response: Response,
) -> AppUserOut:
    """Create the app's user, or bring it up to date (idempotent). Such a user has no
    password: it acts through this API and the user tokens the app signs. 201 when
    created."""
    fields = UserFields(body.username, body.display_name, body.avatar_url)
    result = await apps.users.upsert(app.app_id, external_id, fields)
    if result.result == "created":
        response.status_code = 201
    assert result.user_id is not None and result.result is not None
    return AppUserOut(
        external_id=external_id,
        user_id=str(result.user_id),
        result=result.result,
    )


@router.delete("/users/{external_id}", status_code=204)
async def delete_user(external_id: ExternalId, app: UsersWriter, apps: AppsDep) -> Response:
    """Erase the user as DELETE /v1/me does (posts, follows, likes, media); the external
    ID is free again."""
    await apps.users.erase(app.app_id, external_id)
    return Response(status_code=204)


@router.post(
    "/users:batch",
    response_model=BatchOut,
    response_model_exclude_none=True,
    openapi_extra={"requestBody": BATCH_BODY},
)
async def users_batch(request: Request, app: UsersWriter, apps: AppsDep) -> BatchOut:
    """Upsert up to 10,000 users (`{external_id, username, display_name}` rows, NDJSON
    or a JSON array): a result per row; bad rows are reported while the rest land."""
    config = feedloom_of(request).settings.apps
    rows = await raw_rows(request, config.batch_max_rows)
    results: list[RowResult] = []
    for first, part in chunks(rows, config.batch_chunk_rows, AppUserRowIn, _user_row):
        parsed = [row if isinstance(row, tuple) else ("", row) for row in part]
        results.extend(await apps.users.batch(app.app_id, parsed, first))
    return _batch(results)


@router.post(
    "/follows:batch",
    response_model=BatchOut,
    response_model_exclude_none=True,
    openapi_extra={"requestBody": BATCH_BODY},
)
async def follows_batch(request: Request, app: GraphWriter, apps: AppsDep) -> BatchOut:
    """Follow or unfollow by external IDs (`{follower, followee, op}` rows, up to
    10,000, NDJSON or a JSON array): idempotent, a result per row."""
    config = feedloom_of(request).settings.apps
    rows = await raw_rows(request, config.batch_max_rows)
    results: list[RowResult] = []
    for first, part in chunks(rows, config.batch_chunk_rows, FollowRowIn, _follow_row):
        results.extend(await apps.follows.batch(app.app_id, part, first))
    return _batch(results)


def _user_row(row: AppUserRowIn) -> tuple[str, UserFields]:
    return row.external_id, UserFields(row.username, row.display_name, row.avatar_url)


def _follow_row(row: FollowRowIn) -> FollowRow:
    return FollowRow(row.follower, row.followee, row.op)


def _batch(results: list[RowResult]) -> BatchOut:
    out = [
        RowOut(
            index=r.index,
            external_id=r.external_id,
            user_id=str(r.user_id) if r.user_id is not None else None,
            result=r.result,
            error=RowError(**problem_body(r.error)) if r.error is not None else None,
        )
        for r in results
    ]
    return BatchOut(rows=len(out), failed=sum(r.error is not None for r in out), results=out)


@router.post("/webhooks", status_code=201, response_model=WebhookCreated)
async def create_webhook(body: WebhookIn, app: WebhooksManager, apps: AppsDep) -> WebhookCreated:
    """Subscribe a URL to event types; each delivery is signed per Standard Webhooks
    with the `secret` returned here, once (docs/INTEGRATION.md)."""
    hook = await _webhooks(apps).create(app.app_id, body.url, body.events)
    return WebhookCreated(**_hook(hook).model_dump(), secret=hook.secret)


@router.get("/webhooks", response_model=WebhookList)
async def list_webhooks(app: WebhooksManager, apps: AppsDep) -> WebhookList:
    """The app's webhooks (never their secrets)."""
    return WebhookList(items=[_hook(hook) for hook in await _webhooks(apps).list(app.app_id)])


@router.delete("/webhooks/{webhook_id}", status_code=204)
async def delete_webhook(webhook_id: WebhookId, app: WebhooksManager, apps: AppsDep) -> Response:
    """Stop delivering to it (deliveries not yet sent are dropped)."""
    await _webhooks(apps).delete(app.app_id, webhook_id)
    return Response(status_code=204)


def _webhooks(apps: AppServices) -> Webhooks:
    assert apps.webhooks is not None  # set when the composition root opened
    return apps.webhooks


def _hook(hook: Webhook) -> WebhookOut:
    return WebhookOut(
        id=str(hook.webhook_id), url=hook.url, events=list(hook.events), created_at=hook.created_at
    )
