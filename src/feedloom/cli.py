"""The `feedloom` command: serve, worker, migrate, and operator tools."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from sqlalchemy.exc import DBAPIError

from feedloom.adapters.redis.bench import register as register_timeline_bench
from feedloom.affinity_cli import register as register_affinity_commands
from feedloom.bench.cli import register as register_bench_commands
from feedloom.capacity.cli import register as register_capacity_commands
from feedloom.capacity.import_command import register as register_import_command
from feedloom.logs import configure_logging
from feedloom.settings import Settings

app = typer.Typer(no_args_is_help=True, help="feedloom: a news-feed service.")
console = Console(stderr=True)

# Demo-sized thresholds: a few hundred users cannot reach 10,000 followers, but the
# demo should still show pulled (big) accounts next to pushed ones.
DEMO_FANOUT = {"pull_above": 60, "push_below": 48, "bulk_above": 30}


def load_settings(data_dir: Path | None = None, demo: bool = False) -> Settings:
    overrides: dict[str, object] = {}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    settings = Settings(**overrides)  # type: ignore[arg-type]
    if demo and not any(k.startswith("FEEDLOOM_FANOUT") for k in os.environ):
        settings = settings.model_copy(
            update={"fanout": settings.fanout.model_copy(update=DEMO_FANOUT)}
        )
    return settings


@app.command()
def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Annotated[Path | None, typer.Option(help="where the SQLite file lives")] = None,
    demo: Annotated[bool, typer.Option(help="seed demo users and posts on an empty store")] = True,
    inline_worker: Annotated[
        bool | None,
        typer.Option(help="run relay + fan-out in this process (default: embedded only)"),
    ] = None,
) -> None:
    """Run the HTTP API (and, on the embedded default, the fan-out worker)."""
    from feedloom.api.app import create_app
    from feedloom.api.serving import serve_http
    from feedloom.demo import start_demo

    settings = load_settings(data_dir, demo)
    _refuse_unusable_backends(settings)
    run_inline = settings.is_embedded if inline_worker is None else inline_worker
    application = create_app(
        settings, inline_worker=run_inline, on_startup=start_demo if demo else None
    )
    configure_logging(settings)
    console.print(
        f"[bold green]feedloom[/] on http://{host}:{port}  (API docs: http://{host}:{port}/docs)"
    )
    if demo:
        console.print("demo login: username [bold]demo[/], password [bold]demo-password[/]")
    serve_http(application, settings, host, port)


@app.command()
def worker(
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="consumers per lane")] = 1,
) -> None:
    """Run relay + fan-out workers until interrupted (any number of these may run)."""
    from feedloom.api.serving import serve_admin_while
    from feedloom.bootstrap import build_backend
    from feedloom.write.worker import run_worker

    settings = load_settings()
    _refuse_unusable_backends(settings)
    configure_logging(settings)

    async def main() -> None:
        backend = await build_backend(settings)
        stop = asyncio.Event()
        # SIGTERM/SIGINT end the loops after their current batch: what was consumed is
        # handled and acknowledged, the rest stays in the log for the other workers.
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            await serve_admin_while(run_worker(backend, stop, concurrency), backend, settings)
        finally:
            await backend.close()
        console.print("worker stopped")

    asyncio.run(main())


@app.command()
def migrate() -> None:
    """Bring the database schema up to date (Alembic)."""
    from feedloom.adapters.sql.database import create_database
    from feedloom.adapters.sql.database import migrate as run_migrations

    settings = load_settings()

    async def main() -> None:
        engine = create_database(settings.effective_database_url, settings.database_schema)
        try:
            await run_migrations(engine, settings.database_schema)
        finally:
            await engine.dispose()

    if settings.effective_database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        asyncio.run(main())
    except (OSError, DBAPIError) as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        _fail(f"cannot migrate the database: {reason}")
    console.print("schema is up to date")


def _refuse_unusable_backends(settings: Settings) -> None:
    """Stop before serving anything if the database is unreachable or unmigrated, or
    Redis is configured but does not answer."""
    from feedloom.adapters.redis import RedisUnavailable, redis_caches
    from feedloom.adapters.sql.database import database_problem

    url, schema = settings.effective_database_url, settings.database_schema
    if problem := asyncio.run(database_problem(url, schema)):
        _fail(problem)

    async def ping_redis() -> None:
        _caches, close = await redis_caches(settings)
        await close()

    if settings.redis_url is not None:
        try:
            asyncio.run(ping_redis())
        except RedisUnavailable as error:
            _fail(str(error))


def _fail(message: str) -> NoReturn:
    # One plain line on stderr (no Rich wrapping, no traceback): operators grep for it.
    typer.echo(f"feedloom: {message}", err=True)
    raise typer.Exit(1)


register_capacity_commands(app)
register_import_command(app)
register_bench_commands(app)
register_timeline_bench(app)  # after the bench group exists: joins it
register_affinity_commands(app)


def main() -> None:
    app()
