"""An embedded app per test with chosen settings, and /metrics samples by name."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.lifespan import lifespan_of

Sample = tuple[dict[str, str], float]


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    app = create_app(settings, inline_worker=False)
    async with lifespan_of(app):
        yield app, client_of(app)


def client_of(app: FastAPI, *, raise_app_exceptions: bool = True) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=raise_app_exceptions)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def samples(exposition: str, name: str) -> list[Sample]:
    return [
        (sample.labels, sample.value)
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
        if sample.name == name
    ]


def value(exposition: str, name: str, **labels: str) -> float:
    """The one sample of `name` whose labels include `labels` (0 when there is none)."""
    found = [v for have, v in samples(exposition, name) if labels.items() <= have.items()]
    assert len(found) <= 1, found
    return found[0] if found else 0.0
