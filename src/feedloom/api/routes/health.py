"""Liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from feedloom.api.deps import FeedloomDep
from feedloom.api.problems import PROBLEM_JSON, problem
from feedloom.bootstrap import STORE_OUTAGE_TYPES, Feedloom, is_store_outage

router = APIRouter(tags=["operations"])


@router.get(
    "/healthz", responses={200: {"content": {"application/json": {"example": {"status": "ok"}}}}}
)
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=None,
    responses={
        200: {
            "content": {
                "application/json": {
                    "example": {"status": "ready", "outbox_pending": 0, "queue": {"default": 0}}
                }
            }
        },
        503: {
            "description": "A backend is unreachable",
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        },
    },
)
async def readyz(feedloom: FeedloomDep) -> dict[str, object] | Response:
    """Ready when the durable store answers; reports queue depth for operators."""
    try:
        pending = await feedloom.stores.outbox.pending()
        lag = await feedloom.queue.lag()
    except Exception as error:  # any backend failure means: do not route traffic here
        return problem(
            503, "not-ready", "Not ready", f"backend unavailable: {type(error).__name__}"
        )
    return {"status": "ready", "outbox_pending": pending, "queue": lag}


@router.get(
    "/metrics",
    responses={200: {"content": {CONTENT_TYPE_LATEST: {"example": "feedloom_outbox_pending 0\n"}}}},
)
async def metrics(feedloom: FeedloomDep) -> Response:
    """Prometheus metrics (a bearer metrics token or the admin port, see docs/OPERATIONS.md)."""
    try:
        await refresh_outbox_gauges(feedloom)
    except STORE_OUTAGE_TYPES as error:
        if not is_store_outage(error):
            raise
        # Scraped all the same, last value kept: an outage is when metrics matter most.
    await refresh_queue_gauges(feedloom)
    return Response(generate_latest(feedloom.metrics.registry), media_type=CONTENT_TYPE_LATEST)


async def refresh_outbox_gauges(feedloom: Feedloom) -> None:
    """Backlog gauges are read at scrape time: the outbox's depth, and the age of the
    oldest event not yet done at each outbox stage (unsent, sent)."""
    outbox, metrics = feedloom.stores.outbox, feedloom.metrics
    metrics.outbox_pending.set(await outbox.pending())
    metrics.notification_events_pending.set(await feedloom.stores.notifications.pending())
    now = feedloom.runtime.clock()
    for stage, sent in (("outbox", False), ("outbox_sent", True)):
        oldest = await outbox.oldest(sent)
        age = 0.0 if oldest is None else max((now - oldest).total_seconds(), 0.0)
        metrics.oldest_pending.labels(stage).set(age)


async def refresh_queue_gauges(feedloom: Feedloom) -> None:
    """Each lane's depth and the age of its oldest waiting event."""
    queue, metrics = feedloom.queue, feedloom.metrics
    for lane, depth in (await queue.lag()).items():
        metrics.queue_depth.labels(lane).set(depth)
    for lane, age in (await queue.oldest_age_s()).items():
        metrics.oldest_pending.labels(lane).set(age)
