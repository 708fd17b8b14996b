"""Every route dependency runs on the event loop: FastAPI sends a plain `def`
dependency to a worker thread, a thread hop per dependency per request."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute

from feedloom.api.app import create_app
from feedloom.settings import Settings


def _dependencies(dependant: Dependant) -> Iterator[Dependant]:
    for dependency in dependant.dependencies:
        yield dependency
        yield from _dependencies(dependency)


def _api_routes(routes: Iterable[BaseRoute]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)  # FastAPI's included routers
        if included is not None:
            yield from _api_routes(included.routes)


def test_no_route_dependency_runs_in_a_thread(settings: Settings) -> None:
    routes = list(_api_routes(create_app(settings, inline_worker=False).routes))
    assert any(route.path == "/v1/feed" for route in routes)
    threaded = {
        f"{route.path}: {dependency.call.__name__}"
        for route in routes
        for dependency in _dependencies(route.dependant)
        if dependency.call is not None and not inspect.iscoroutinefunction(dependency.call)
    }
    assert not threaded
