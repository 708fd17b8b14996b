"""One way for tests to start and stop an app's lifespan.

asgi-lifespan gives startup five seconds by default; on a loaded 2-core CI machine a
cluster-backed app can take longer than that to connect, so tests wait as long as a
test may reasonably take instead of failing on the machine's load."""

from __future__ import annotations

from asgi_lifespan import LifespanManager
from starlette.types import ASGIApp

STARTUP_SECONDS = 120.0
SHUTDOWN_SECONDS = 120.0


def lifespan_of(app: ASGIApp) -> LifespanManager:
    return LifespanManager(app, startup_timeout=STARTUP_SECONDS, shutdown_timeout=SHUTDOWN_SECONDS)
