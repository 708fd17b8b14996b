"""`feedloom serve | worker | migrate`: the service's own processes.

`serve` and `worker` refuse to start on a database or Redis they cannot use, in one
line (`refuse_unusable_backends`, cli/config.py), rather than failing on the first request.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path
from typing import Annotated

import typer

from feedloom.cli.config import refuse_unusable_backends
from feedloom.cli.errors import fail
from feedloom.write import consumers

log = logging.getLogger(__name__)

# The service's stack (uvicorn, SQLAlchemy, pydantic...) is imported by each command,
# not at CLI start: `feedloom --help` must stay fast.


def serve(
    host: str = "127.0.0.1",
    # FEEDLOOM_PORT: so the README's literal `./scripts/serve` can run beside another server
    # (the fresh-clone test does).
    port: Annotated[int, typer.Option(min=1, max=65_535, envvar="FEEDLOOM_PORT")] = 8000,
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
    demo: Annotated[bool, typer.Option(help="seed demo users and posts on an empty store")] = True,
    inline_worker: Annotated[
        bool | None,
        typer.Option(help="run relay + fan-out in this process (default: embedded only)"),
    ] = None,
    reuse_port: Annotated[
        bool,
        typer.Option(help="share --port with other serve processes (SO_REUSEPORT)"),
    ] = False,
) -> None:
    """Run the HTTP API (and, on the embedded default, the fan-out worker)."""
    from feedloom.api.app import create_app
    from feedloom.api.serving import serve_http
    from feedloom.cli.config import command_settings
    from feedloom.demo import demo_running
    from feedloom.logs import configure_logging

    settings = command_settings(data_dir, demo)
    refuse_unusable_backends(settings)
    run_inline = settings.is_embedded if inline_worker is None else inline_worker
    application = create_app(
        settings, inline_worker=run_inline, companion=demo_running if demo else None
    )
    configure_logging(settings)
    # Logged, not printed: with FEEDLOOM_LOG_FORMAT=json the first line is JSON too.
    url = f"http://{host}:{port}"
    log.info("feedloom on %s  (web client: %s/, API docs: %s/docs)", url, url, url)
    if demo:
        log.info("demo login (web and API): username demo, password demo-password")
    serve_http(application, settings, host, port, reuse_port)


EMBEDDED_WORKER = (
    "feedloom worker needs Redis (FEEDLOOM_REDIS_URL): on the embedded default the queue "
    "and timelines live inside `feedloom serve`, which runs its own worker; a separate "
    "worker would take its events into memory no reader sees"
)


def worker(
    concurrency: Annotated[
        int, typer.Option(min=1, max=64, help="consumers per lane")
    ] = consumers.SHARED_STORE,
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
    metrics_port: Annotated[
        int | None,
        typer.Option(min=1, max=65_535, help="serve /metrics, /healthz, /readyz on this port"),
    ] = None,
) -> None:
    """Run relay + fan-out workers until interrupted (any number of these may run)."""
    from uvicorn.loops.auto import auto_loop_factory

    from feedloom.api.serving import serve_admin_while, settle_heap
    from feedloom.bootstrap import open_feedloom
    from feedloom.cli.config import command_settings
    from feedloom.logs import configure_logging
    from feedloom.loops import eager

    settings = command_settings(data_dir)
    if settings.is_embedded:
        fail(EMBEDDED_WORKER)
    if metrics_port is not None:
        settings = settings.model_copy(update={"admin_port": metrics_port})
    refuse_unusable_backends(settings)
    configure_logging(settings)

    async def main() -> None:
        async with open_feedloom(settings) as feedloom:
            settle_heap()
            stop = asyncio.Event()
            # SIGTERM/SIGINT end the loops after their current batch: what was consumed is
            # handled and acknowledged, the rest stays in the log for the other workers.
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signum, stop.set)
            loops = feedloom.services.worker.run(stop, concurrency)
            await serve_admin_while(loops, feedloom, settings)
        log.info("worker stopped")

    # The API server's event loop (uvloop where installed), as `feedloom bench fanout`
    # measures the worker on.
    with asyncio.Runner(loop_factory=eager(auto_loop_factory())) as runner:
        runner.run(main())


def migrate() -> None:
    """Bring the database schema up to date (Alembic)."""
    from sqlalchemy.exc import DBAPIError

    from feedloom.adapters.sql.database import create_database
    from feedloom.adapters.sql.database import migrate as run_migrations
    from feedloom.cli.config import command_settings

    settings = command_settings()

    async def main() -> list[str]:
        engine = create_database(settings.effective_database_url, settings.database_schema)
        try:
            return await run_migrations(engine, settings.database_schema)
        finally:
            await engine.dispose()

    if settings.effective_database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        applied = asyncio.run(main())
    except (OSError, DBAPIError) as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        fail(f"cannot migrate the database: {reason}")
    typer.echo(migrate_report(applied), err=True)


def migrate_report(applied: list[str]) -> str:
    if not applied:
        return "schema is up to date: no migration to apply"
    if len(applied) == 1:
        return f"applied migration {applied[0]}: schema is up to date"
    return (
        f"applied {len(applied)} migrations ({applied[0]} to {applied[-1]}): schema is up to date"
    )
