"""/metrics behind a bearer token, and /metrics + /readyz moved to an admin app."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from feedloom.api.admin import create_admin_app
from feedloom.settings import Settings
from tests.api.observed import client_of, running, value

TOKEN = "s3cret-metrics-token-for-tests"


async def test_with_a_metrics_token_metrics_want_it_and_probes_do_not(settings: Settings) -> None:
    protected = settings.model_copy(update={"metrics_token": SecretStr(TOKEN)})
    async with running(protected) as (_app, client):
        anonymous = await client.get("/metrics")
        wrong = await client.get("/metrics", headers={"Authorization": "Bearer not-the-token"})
        basic = await client.get("/metrics", headers={"Authorization": f"Basic {TOKEN}"})
        right = await client.get("/metrics", headers={"Authorization": f"bearer {TOKEN}"})
        ready, alive = await client.get("/readyz"), await client.get("/healthz")
    for refused in (anonymous, wrong, basic):
        assert refused.status_code == 401
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["www-authenticate"] == "Bearer"
        assert refused.json()["type"].endswith("/unauthorized")
        assert "x-request-id" in refused.headers
    assert right.status_code == 200
    assert "feedloom_http_requests_total" in right.text
    assert value(right.text, "feedloom_http_requests_total", route="unmatched", status="401") == 3
    assert ready.status_code == alive.status_code == 200


async def test_with_an_admin_port_metrics_and_readiness_leave_the_public_app(
    settings: Settings,
) -> None:
    separate = settings.model_copy(update={"admin_port": 9100})
    async with running(separate) as (app, public):
        hidden = [await public.get(path) for path in ("/metrics", "/readyz")]
        assert (await public.get("/healthz")).status_code == 200
        async with client_of(create_admin_app(app.state, separate)) as admin:
            ready, metrics = await admin.get("/readyz"), await admin.get("/metrics")
            alive = await admin.get("/healthz")
    for response in hidden:
        assert response.status_code == 404
        assert response.headers["content-type"] == "application/problem+json"
    assert ready.json()["status"] == "ready"
    assert alive.status_code == 200
    # One registry: the admin app shows what the public app counted.
    assert value(metrics.text, "feedloom_http_requests_total", route="/healthz") == 1
    assert "x-request-id" in metrics.headers


async def test_the_admin_app_asks_for_the_token_too_when_one_is_set(settings: Settings) -> None:
    both = settings.model_copy(update={"admin_port": 9100, "metrics_token": SecretStr(TOKEN)})
    async with running(both) as (app, _public):
        admin_app = create_admin_app(app.state, both)
        async with client_of(admin_app) as admin:
            anonymous = await admin.get("/metrics")
            allowed = await admin.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
            ready = await admin.get("/readyz")
    assert anonymous.status_code == 401
    assert allowed.status_code == ready.status_code == 200


def test_a_short_metrics_token_is_refused() -> None:
    with pytest.raises(ValidationError, match="metrics_token"):
        Settings(metrics_token="short")
