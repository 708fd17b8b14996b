"""Every response carries the security headers, 500s included; a page's own CSP is
kept; HSTS only when configured; CORS answers only the origins allowed."""

from __future__ import annotations

import base64
import hashlib
import re

import httpx
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from feedloom.api.security_headers import API_CSP, HTML_CSP, SecurityHeaders
from feedloom.settings import HttpSettings, Settings
from tests.api.observed import client_of, running
from tests.images import png
from tests.world import World

ORIGIN = "https://app.example"


def assert_secured(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff", response.url
    assert response.headers["referrer-policy"] == "no-referrer", response.url
    assert response.headers["x-frame-options"] == "DENY", response.url
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"], response.url
    assert "strict-transport-security" not in response.headers  # not behind TLS by default


async def test_every_kind_of_response_carries_the_security_headers(world: World) -> None:
    alice = await world.user()
    ticket = (
        await world.client.post(
            "/v1/media",
            json={"content_type": "image/png", "width": 2, "height": 2},
            headers=alice.auth,
        )
    ).json()
    await world.client.put(ticket["upload_url"], content=png(2, 2), headers=alice.auth)
    responses = [
        await world.client.get("/v1/feed", headers=alice.auth),
        await world.client.get("/v1/feed"),
        await world.client.get("/v1/posts/12345", headers=alice.auth),
        await world.client.post("/v1/posts", json={"nope": 1}, headers=alice.auth),
        await world.client.get("/openapi.json"),
        await world.client.get("/healthz"),
        await world.client.get(ticket["url"]),
        await world.client.get("/no/such/route"),
    ]
    assert [r.status_code for r in responses] == [200, 401, 404, 422, 200, 200, 200, 404]
    for response in responses:
        assert_secured(response)
        assert response.headers["content-security-policy"] == API_CSP


async def test_the_docs_page_runs_its_own_start_up_script_and_nothing_else_inline(
    world: World,
) -> None:
    page = await world.client.get("/docs")
    assert_secured(page)
    policy = page.headers["content-security-policy"]
    [script] = re.findall(rb"<script>(.*?)</script>", page.content, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}';" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "default-src 'none'" in policy


async def test_a_500_carries_them_too(settings: Settings) -> None:
    async with running(settings) as (app, _client):

        @app.get("/boom")
        async def boom() -> None:
            raise RuntimeError("kaboom")

        async with client_of(app, raise_app_exceptions=False) as failing:
            answered = await failing.get("/boom")
    assert answered.status_code == 500
    assert_secured(answered)


async def test_a_response_that_brings_its_own_policy_keeps_it_and_html_gets_the_page_default() -> (
    None
):
    async def own(_request: object) -> HTMLResponse:
        return HTMLResponse("<p>hi</p>", headers={"Content-Security-Policy": "script-src 'self'"})

    async def plain(_request: object) -> HTMLResponse:
        return HTMLResponse("<p>hi</p>")

    app = SecurityHeaders(Starlette(routes=[Route("/own", own), Route("/plain", plain)]), None)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        kept, defaulted = await client.get("/own"), await client.get("/plain")
    assert kept.headers.get_list("content-security-policy") == ["script-src 'self'"]
    assert defaulted.headers["content-security-policy"] == HTML_CSP


async def test_hsts_is_sent_only_when_configured_for_tls(settings: Settings) -> None:
    behind_tls = settings.model_copy(update={"http": HttpSettings(hsts_max_age_s=31_536_000)})
    async with running(behind_tls) as (_app, client):
        answered = await client.get("/healthz")
    assert answered.headers["strict-transport-security"] == "max-age=31536000"


async def test_cors_is_off_by_default(world: World) -> None:
    preflight = await world.client.options(
        "/v1/feed", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "GET"}
    )
    simple = await world.client.get("/healthz", headers={"Origin": ORIGIN})
    assert "access-control-allow-origin" not in preflight.headers
    assert "access-control-allow-origin" not in simple.headers


async def test_cors_answers_the_allowed_origins_and_no_other(settings: Settings) -> None:
    allowed = settings.model_copy(update={"http": HttpSettings(cors_origins=[ORIGIN])})
    async with running(allowed) as (_app, client):
        preflight = await client.options(
            "/v1/posts",
            headers={
                "Origin": ORIGIN,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
            },
        )
        simple = await client.get("/healthz", headers={"Origin": ORIGIN})
        stranger = await client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == ORIGIN
    assert "idempotency-key" in preflight.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in preflight.headers
    assert simple.headers["access-control-allow-origin"] == ORIGIN
    assert "access-control-allow-origin" not in stranger.headers
    assert_secured(preflight)
