"""No proxy is trusted unless named (FEEDLOOM_HTTP__TRUSTED_PROXIES): a real server,
configured as `feedloom serve` configures it, ignores X-Forwarded-For and Forwarded
even from 127.0.0.1, so a client behind a proxy on the same host that passes the
header through cannot rotate its way past the per-address limits. (uvicorn trusted
127.0.0.1 by default: 60 of 60 sign-ins with a rotating header were never limited.)"""

from __future__ import annotations

import httpx

from feedloom.api.app import create_app
from feedloom.ports import RateRule
from feedloom.settings import Settings
from tests.integration.served import served


async def test_a_rotating_forwarded_header_from_localhost_does_not_escape_the_limits(
    app_settings: Settings,
) -> None:
    app = create_app(app_settings, inline_worker=False)
    async with served(app, app_settings) as url, httpx.AsyncClient(base_url=url) as client:
        rules = app.state.feedloom.services.throttle.rules
        for rule in ("sign_in_per_address", "sign_up_per_address"):
            rules[rule] = RateRule(rule, 2, 300)
        sign_ins = []
        for n in range(3):
            headers = {"X-Forwarded-For": f"203.0.113.{n}", "Forwarded": f"for=198.51.100.{n}"}
            body = {"username": "nobody_here", "password": "wrong password"}
            sign_ins.append(await client.post("/v1/sessions", json=body, headers=headers))
        assert [answer.status_code for answer in sign_ins] == [401, 401, 429]
        sign_ups = []
        for n in range(3):
            headers = {"X-Forwarded-For": f"203.0.113.{n}"}
            body = {"username": f"rotating_{n}", "password": "a long password"}
            sign_ups.append(await client.post("/v1/accounts", json=body, headers=headers))
        assert [answer.status_code for answer in sign_ups] == [201, 201, 429]
