"""Is this error the database being unreachable, rather than a bug?

A PostgreSQL outage surfaces in many shapes: a refused or timed-out connect (a plain
OSError from the driver, never wrapped by SQLAlchemy), a pool with no connection to
give within the wait, a pooled connection found dead (`connection_invalidated`), a
server shutting down or refusing connections, a backend terminated by an operator.
On SQLite it is the write lock held past the busy timeout, or a file that cannot be
opened. Every one of them means "retry shortly"; the API answers them 503 with
Retry-After (api/problems.py) and the next request after recovery simply works, as
SQLAlchemy's pool drops the dead connections it noticed.

A constraint violation, a syntax error or a missing table is a bug and stays a 500.
"""

from __future__ import annotations

from asyncpg.exceptions import (
    ConnectionDoesNotExistError,
    OperatorInterventionError,
    PostgresConnectionError,
    TooManyConnectionsError,
)
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# Catch these, then ask `is_outage`: a DBAPIError may also be a bug.
OUTAGE_TYPES: tuple[type[Exception], ...] = (
    OSError,
    PoolTimeout,
    DBAPIError,
    OperatorInterventionError,
    PostgresConnectionError,
    TooManyConnectionsError,
    ConnectionDoesNotExistError,
)
_DRIVER_OUTAGES = (
    OSError,
    OperatorInterventionError,
    PostgresConnectionError,
    TooManyConnectionsError,
    ConnectionDoesNotExistError,
)
# SQLite's OperationalError covers both an unavailable file and a broken query.
_SQLITE_OUTAGES = ("database is locked", "database is busy", "unable to open", "disk i/o")


def is_outage(error: BaseException) -> bool:
    if isinstance(error, (PoolTimeout, *_DRIVER_OUTAGES)):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated or any(
        isinstance(cause, _DRIVER_OUTAGES) for cause in _causes(error)
    ):
        return True
    if "sqlite" in type(error.orig).__module__:
        return isinstance(error, OperationalError) and any(
            sign in str(error.orig).lower() for sign in _SQLITE_OUTAGES
        )
    return isinstance(error, OperationalError | InterfaceError)


def _causes(error: DBAPIError) -> list[BaseException]:
    """The driver's own exceptions behind SQLAlchemy's wrapper (asyncpg's adapter
    chains them as the cause of the DBAPI-style error it raises)."""
    found: list[BaseException] = []
    cause: BaseException | None = error.orig
    while cause is not None and len(found) < 5:
        found.append(cause)
        cause = cause.__cause__ or cause.__context__
    return found
