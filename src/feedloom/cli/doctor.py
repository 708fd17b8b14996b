"""`feedloom doctor`: is this machine's configuration fit to run feedloom? One line per
check, `ok` or `FIX` and what to do; exit code 1 when anything needs fixing.

Checked: every FEEDLOOM_* variable is known and valid (all wrong ones listed at once,
placeholders of the example env file included); the database answers and is migrated;
Redis (when configured) answers, is 7.0 or newer and evicts only keys with a TTL (an
event stream has none and must never be evicted); the secret key is set in production;
this process has a worker ID of its own; this machine's clock agrees with the database's
and Redis's (Snowflake IDs are minted from it: a clock behind the others mints IDs that
sort as older posts).

Not checkable from one process: that no other process uses the same worker ID.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from feedloom.settings import Settings

MAX_CLOCK_SKEW_S = 1.0
REDIS_MIN_VERSION = (7, 0)
# Policies that never evict a key without a TTL: the event streams have none.
SAFE_POLICIES = {"noeviction", "volatile-lru", "volatile-lfu", "volatile-ttl", "volatile-random"}


@dataclass(frozen=True, slots=True)
class Finding:
    check: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok ' if self.ok else 'FIX'}  {self.check:<9} {self.detail}"


def doctor() -> None:
    """Check the settings, database, Redis, secrets, worker ID and clock; print what to fix."""
    from feedloom.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as error:  # every wrong variable at once, not only the first
        for problem in error.problems:
            typer.echo(Finding("settings", False, problem).line())
        raise typer.Exit(1) from None
    findings = asyncio.run(examine(settings))
    for finding in findings:
        typer.echo(finding.line())
    if not all(finding.ok for finding in findings):
        raise typer.Exit(1)


async def examine(settings: Settings) -> list[Finding]:
    findings = [await _database(settings)]
    findings += await _redis(settings)
    findings += [_secret(settings), _worker_id(settings)]
    return findings


async def _database(settings: Settings) -> Finding:
    from feedloom.adapters.sql.database import database_clock, database_problem

    url, schema = settings.effective_database_url, settings.database_schema
    if problem := await database_problem(url, schema):
        return Finding("database", False, problem)
    if url.startswith("sqlite"):
        return Finding("database", True, "SQLite, migrated on start")
    clock = await database_clock(url, schema)
    skew = _skew(clock)
    if skew is not None and abs(skew) > MAX_CLOCK_SKEW_S:
        return Finding("clock", False, f"{skew:+.1f}s off the database's clock: sync it (NTP)")
    return Finding("database", True, f"reachable and migrated, clock within {MAX_CLOCK_SKEW_S:g}s")


async def _redis(settings: Settings) -> list[Finding]:
    from feedloom.adapters.redis import RedisUnavailable
    from feedloom.adapters.redis.server_facts import redis_facts

    if settings.redis_url is None:
        return [Finding("redis", True, "not configured: in-process caches and queue")]
    try:
        facts = await redis_facts(settings.redis_url, settings.redis_cluster)
    except RedisUnavailable as error:
        return [Finding("redis", False, str(error))]
    findings = []
    version = tuple(int(part) for part in facts.version.split(".")[:2] if part.isdigit())
    if version < REDIS_MIN_VERSION:
        findings.append(Finding("redis", False, f"version {facts.version}: 7.0 or newer needed"))
    if facts.maxmemory_policy not in SAFE_POLICIES:
        findings.append(
            Finding(
                "redis",
                False,
                f"maxmemory-policy {facts.maxmemory_policy} may evict the event streams: "
                "set volatile-lru (docs/REDIS.md)",
            )
        )
    skew = _skew(facts.now)
    if skew is not None and abs(skew) > MAX_CLOCK_SKEW_S:
        findings.append(Finding("clock", False, f"{skew:+.1f}s off Redis's clock: sync it (NTP)"))
    if not findings:
        detail = f"{facts.version}, maxmemory-policy {facts.maxmemory_policy}, clock agrees"
        findings.append(Finding("redis", True, detail))
    return findings


def _secret(settings: Settings) -> Finding:
    from feedloom.settings import SECRET_KEY_FILE

    if settings.secret_key is not None:
        return Finding("secret", True, "FEEDLOOM_SECRET_KEY is set")
    if not settings.is_embedded_default:
        return Finding("secret", False, "FEEDLOOM_SECRET_KEY unset: openssl rand -hex 32")
    return Finding("secret", True, f"generated on first start: data dir/{SECRET_KEY_FILE}")


def _worker_id(settings: Settings) -> Finding:
    if "FEEDLOOM_WORKER_ID" in {name.upper() for name in os.environ}:
        return Finding("worker id", True, f"{settings.worker_id}; each process needs its own")
    return Finding("worker id", True, "leased from the database per process (default)")


def _skew(theirs: datetime | None) -> float | None:
    return None if theirs is None else (datetime.now(UTC) - theirs).total_seconds()
