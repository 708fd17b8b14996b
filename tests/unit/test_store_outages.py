"""Which errors are the database being unreachable (503, retry) and which are bugs
(500): adapters/sql/outages.py."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from feedloom.adapters.sql.outages import OUTAGE_TYPES, is_outage


def wrapped(kind: type[DBAPIError], orig: BaseException, invalidated: bool = False) -> Exception:
    return kind("SELECT 1", {}, orig, connection_invalidated=invalidated)


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(111, "Connect call failed"),
        TimeoutError("connect timed out"),
        PoolTimeout("QueuePool limit reached"),
        asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
        asyncpg.exceptions.TooManyConnectionsError("too many clients"),
        wrapped(OperationalError, sqlite3.OperationalError("database is locked")),
        wrapped(OperationalError, sqlite3.OperationalError("unable to open database file")),
        wrapped(InterfaceError, Exception("connection is closed"), invalidated=True),
        wrapped(OperationalError, Exception("terminating connection due to administrator")),
    ],
    ids=lambda error: type(error).__name__,
)
def test_an_unreachable_or_locked_database_is_an_outage(error: BaseException) -> None:
    assert isinstance(error, OUTAGE_TYPES)
    assert is_outage(error)


@pytest.mark.parametrize(
    "error",
    [
        wrapped(IntegrityError, sqlite3.IntegrityError("UNIQUE constraint failed")),
        wrapped(OperationalError, sqlite3.OperationalError("no such table: posts")),
        wrapped(ProgrammingError, Exception("syntax error at or near")),
        ValueError("not a database error at all"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_a_broken_query_is_a_bug_not_an_outage(error: BaseException) -> None:
    assert not is_outage(error)
