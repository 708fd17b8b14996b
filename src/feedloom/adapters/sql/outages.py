"""Is this error the database being unreachable, rather than a bug?

Decided by what the error is, never by its message. On PostgreSQL by SQLSTATE: class
08 (connection exception), class 53 (insufficient resources: too many connections, out
of memory, disk full), 55000 (the database is not accepting connections, as during
`ALTER DATABASE … ALLOW_CONNECTIONS false`) and 57P01-57P03 (the server is shutting
down, crashed, or cannot accept connections yet). The state is read from the driver's
exception wherever it sits: asyncpg's own, or SQLAlchemy's adapted one in front of it.
Then by the driver's connection errors: a refused, reset or timed-out connect is an
OSError (asyncpg raises it as is, SQLAlchemy does not wrap it), a pool with no
connection to give within the wait is SQLAlchemy's pool timeout, and a pooled
connection found dead is a DBAPIError with `connection_invalidated`. On SQLite by its
primary result code: the write lock held past the busy timeout (BUSY, LOCKED), a file
that cannot be opened, read or written (CANTOPEN, IOERR, FULL).

Every one of them means "retry shortly": the API answers them 503 with Retry-After
(api/problems.py), the worker retries instead of dead-lettering, and the first request
after recovery simply works, as SQLAlchemy's pool drops the dead connections it
noticed. A constraint violation, a syntax error or a missing table is a bug and stays
a 500.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from asyncpg.exceptions import PostgresError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# Catch these, then ask `is_outage`: a DBAPIError or a PostgresError may also be a bug.
OUTAGE_TYPES: tuple[type[Exception], ...] = (OSError, PoolTimeout, DBAPIError, PostgresError)

OUTAGE_SQLSTATE_CLASSES = frozenset({"08", "53"})
OUTAGE_SQLSTATES = frozenset({"55000", "57P01", "57P02", "57P03"})
# sqlite3 result codes (the low byte is the primary code; extended codes add high bits).
OUTAGE_SQLITE_CODES = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
    }
)
MAX_CAUSES = 6


def is_outage(error: BaseException) -> bool:
    if isinstance(error, PoolTimeout):
        return True
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    return any(_is_outage_itself(cause) for cause in _causes(error))


def sqlstate_is_outage(state: str) -> bool:
    return state[:2] in OUTAGE_SQLSTATE_CLASSES or state in OUTAGE_SQLSTATES


def _is_outage_itself(error: BaseException) -> bool:
    if isinstance(error, OSError):  # TimeoutError and ConnectionRefusedError included
        return True
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)  # set on every error sqlite3 raises
        return code is not None and code & 0xFF in OUTAGE_SQLITE_CODES
    state = getattr(error, "sqlstate", None)
    return isinstance(state, str) and sqlstate_is_outage(state)


def _causes(error: BaseException) -> Iterator[BaseException]:
    """The error, the driver's exception SQLAlchemy wraps (`orig`), and what that one
    was raised from (asyncpg's adapter chains its own exception as the cause)."""
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < MAX_CAUSES:
        yield current
        seen += 1
        if isinstance(current, DBAPIError) and current.orig is not None:
            current = current.orig
        else:
            current = current.__cause__ or current.__context__
