"""Request IDs on every response and per-route HTTP metrics (api/observability.py)."""

from __future__ import annotations

import logging
import re

from feedloom.logs import RequestIdFilter
from feedloom.settings import Settings
from tests.api.observed import client_of, running, samples, value
from tests.world import World

GENERATED_ID = re.compile(r"[0-9a-f]{32}")


async def test_every_response_carries_a_fresh_request_id(settings: Settings) -> None:
    async with running(settings) as (_app, client):
        ok, missing = await client.get("/healthz"), await client.get("/no/such/path")
    assert missing.status_code == 404
    ids = [ok.headers["x-request-id"], missing.headers["x-request-id"]]
    assert all(GENERATED_ID.fullmatch(rid) for rid in ids)
    assert ids[0] != ids[1]


async def test_a_sane_incoming_request_id_is_kept_and_anything_else_replaced(
    settings: Settings,
) -> None:
    async with running(settings) as (_app, client):
        sane = "0af7651916cd43dd-8448eb211c80319c:edge/1"
        kept = await client.get("/healthz", headers={"X-Request-ID": sane})
        assert kept.headers["x-request-id"] == sane
        for unsafe in ("x" * 129, "two words", "<script>", '"quoted"', ""):
            answered = await client.get("/healthz", headers={"X-Request-ID": unsafe})
            assert GENERATED_ID.fullmatch(answered.headers["x-request-id"]), unsafe


async def test_requests_are_counted_by_route_template_never_by_raw_path(
    settings: Settings,
) -> None:
    async with running(settings) as (app, client):
        world = World(client, app.state.feedloom)
        alice, bob = await world.user(), await world.user()
        for user in (alice, bob):
            profile = await client.get(f"/v1/users/{user.id}", headers=alice.auth)
            assert profile.status_code == 200
        for n in range(3):
            await client.get(f"/wp-admin/{n}.php")
        await client.request("BREW", "/healthz")
        text = (await client.get("/metrics")).text
    users = {"route": "/v1/users/{user_id}", "method": "GET", "status": "200"}
    assert value(text, "feedloom_http_requests_total", **users) == 2
    assert value(text, "feedloom_http_requests_total", route="unmatched", status="404") == 3
    assert value(text, "feedloom_http_requests_total", method="OTHER", status="405") == 1
    assert alice.id not in text
    assert "wp-admin" not in text


async def test_feed_latency_is_a_histogram_by_route(world: World) -> None:
    alice = await world.user()
    await world.feed(alice)
    await world.feed(alice)
    text = (await world.client.get("/metrics")).text
    feed = {"route": "/v1/feed", "method": "GET"}
    assert value(text, "feedloom_http_request_duration_seconds_count", **feed) == 2
    buckets = [
        labels["le"]
        for labels, _ in samples(text, "feedloom_http_request_duration_seconds_bucket")
        if labels["route"] == "/v1/feed"
    ]
    assert {"0.2", "+Inf"} <= set(buckets)


async def test_an_unexpected_error_is_a_500_with_the_request_id_in_header_log_and_metrics(
    settings: Settings,
) -> None:
    async with running(settings) as (app, client):

        @app.get("/boom")
        async def boom() -> None:
            raise RuntimeError("kaboom")

        records: list[logging.LogRecord] = []
        capture = _Capture(records)
        logging.getLogger("feedloom.api.problems").addHandler(capture)
        try:
            async with client_of(app, raise_app_exceptions=False) as failing:
                answered = await failing.get("/boom", headers={"X-Request-ID": "trace-42"})
        finally:
            logging.getLogger("feedloom.api.problems").removeHandler(capture)
        text = (await client.get("/metrics")).text
    assert answered.status_code == 500
    assert answered.headers["content-type"] == "application/problem+json"
    assert answered.headers["x-request-id"] == "trace-42"
    assert [r.request_id for r in records] == ["trace-42"]  # type: ignore[attr-defined]
    assert value(text, "feedloom_http_requests_total", route="/boom", status="500") == 1


async def test_an_oversized_body_is_rejected_with_a_request_id_and_counted(
    settings: Settings,
) -> None:
    async with running(settings) as (_app, client):
        answered = await client.post("/v1/posts", content=b"x" * (settings.max_body_bytes + 1))
        text = (await client.get("/metrics")).text
    assert answered.status_code == 413
    assert GENERATED_ID.fullmatch(answered.headers["x-request-id"])
    assert value(text, "feedloom_http_requests_total", status="413") == 1


async def test_metrics_include_the_process_and_the_runtime(settings: Settings) -> None:
    async with running(settings) as (_app, client):
        text = (await client.get("/metrics")).text
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes", "python_info"):
        assert samples(text, name), name


class _Capture(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__()
        self.records = records
        self.addFilter(RequestIdFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
