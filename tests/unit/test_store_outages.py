"""Which errors are the database being unreachable (503, retry) and which are bugs
(500): adapters/sql/outages.py. PostgreSQL errors are told apart by SQLSTATE class and
the driver's connection errors, SQLite ones by result code, never by message: each
case here carries a message that would mislead a message list."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from feedloom.adapters.sql.outages import OUTAGE_TYPES, is_outage
from feedloom.bootstrap.infrastructure import is_transient

Make = Callable[[Path], BaseException]


def wrapped(kind: type[DBAPIError], orig: BaseException, invalidated: bool = False) -> Exception:
    return kind("SELECT 1", {}, orig, connection_invalidated=invalidated)


def adapted(driver_error: BaseException) -> Exception:
    """As SQLAlchemy's asyncpg dialect raises it: its own DBAPI-style error in front,
    the driver's exception as that one's cause."""
    front = Exception("(sqlalchemy.dialects.postgresql.asyncpg.Error) ...")
    front.__cause__ = driver_error
    return wrapped(DBAPIError, front)


def sqlite_error(tmp_path: Path, statement: str, locked: bool = False) -> sqlite3.Error:
    """A real one, with the result code sqlite3 sets on what it raises."""
    path = tmp_path / "db.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE IF NOT EXISTS t (k INTEGER PRIMARY KEY)")
    holder.execute("INSERT OR IGNORE INTO t VALUES (1)")
    if locked:
        holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute(statement)
    except sqlite3.Error as error:
        return error
    finally:
        other.close()
        holder.close()
    raise AssertionError(f"{statement} did not fail")


def unopenable(tmp_path: Path) -> sqlite3.Error:
    try:
        sqlite3.connect(tmp_path / "no such directory" / "db.sqlite3")
    except sqlite3.Error as error:
        return error
    raise AssertionError("opened a file in a missing directory")


OUTAGES: dict[str, Make] = {
    "refused": lambda _: ConnectionRefusedError(111, "Connect call failed"),
    "connect timeout": lambda _: TimeoutError("connect timed out"),
    "pool timeout": lambda _: PoolTimeout("QueuePool limit reached"),
    "08006 raw": lambda _: asyncpg.exceptions.ConnectionFailureError("looks like a bug"),
    "55000 adapted": lambda _: adapted(
        asyncpg.exceptions.ObjectNotInPrerequisiteStateError("not accepting connections")
    ),
    "53300 adapted": lambda _: adapted(asyncpg.exceptions.TooManyConnectionsError("x")),
    "53100 adapted": lambda _: adapted(asyncpg.exceptions.DiskFullError("x")),
    "57P01 adapted": lambda _: adapted(asyncpg.exceptions.AdminShutdownError("x")),
    "57P02 adapted": lambda _: adapted(asyncpg.exceptions.CrashShutdownError("x")),
    "57P03 raw": lambda _: asyncpg.exceptions.CannotConnectNowError("starting up"),
    "08003 adapted": lambda _: adapted(asyncpg.exceptions.ConnectionDoesNotExistError("x")),
    "refused under the driver": lambda _: adapted(ConnectionResetError(104, "reset by peer")),
    "invalidated": lambda _: wrapped(InterfaceError, Exception("syntax"), invalidated=True),
    "sqlite busy": lambda tmp: wrapped(
        DBAPIError, sqlite_error(tmp, "BEGIN IMMEDIATE", locked=True)
    ),
    "sqlite cannot open": lambda tmp: wrapped(DBAPIError, unopenable(tmp)),
}

BUGS: dict[str, Make] = {
    "unique": lambda _: adapted(asyncpg.exceptions.UniqueViolationError("connection lost")),
    "syntax": lambda _: wrapped(ProgrammingError, asyncpg.exceptions.PostgresSyntaxError("x")),
    "57014 canceled": lambda _: adapted(asyncpg.exceptions.QueryCanceledError("terminating")),
    "a message alone": lambda _: wrapped(
        DBAPIError, Exception("terminating connection due to administrator command")
    ),
    "sqlite no such table": lambda tmp: wrapped(
        DBAPIError, sqlite_error(tmp, "SELECT * FROM missing")
    ),
    "sqlite unique": lambda tmp: wrapped(
        IntegrityError, sqlite_error(tmp, "INSERT INTO t VALUES (1)")
    ),
    "not a database error": lambda _: ValueError("database is locked"),
}


@pytest.mark.parametrize("make", OUTAGES.values(), ids=OUTAGES.keys())
def test_an_unreachable_refusing_or_locked_database_is_an_outage(
    make: Make, tmp_path: Path
) -> None:
    error = make(tmp_path)
    assert isinstance(error, OUTAGE_TYPES)
    assert is_outage(error)
    assert is_transient(error)  # the worker retries it, never dead-letters


@pytest.mark.parametrize("make", BUGS.values(), ids=BUGS.keys())
def test_a_broken_query_is_a_bug_not_an_outage(make: Make, tmp_path: Path) -> None:
    assert not is_outage(make(tmp_path))
