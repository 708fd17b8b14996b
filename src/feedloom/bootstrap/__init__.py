"""Composition root: the one place that picks adapters and wires use cases to them.

`open_feedloom(settings)` builds the durable stores (SQLite, or PostgreSQL when
FEEDLOOM_DATABASE_URL names it), the caches (in-process, or Redis when
FEEDLOOM_REDIS_URL is set), the runtime (clock, IDs, metrics) and, from those, every
use case with only the ports it uses. Nothing connects at import time.
"""

from feedloom.adapters.sql.outages import OUTAGE_TYPES as STORE_OUTAGE_TYPES
from feedloom.adapters.sql.outages import is_outage as is_store_outage
from feedloom.bootstrap.container import Feedloom, Runtime, open_feedloom, utc_now
from feedloom.bootstrap.services import Services

__all__ = [
    "STORE_OUTAGE_TYPES",
    "Feedloom",
    "Runtime",
    "Services",
    "is_store_outage",
    "open_feedloom",
    "utc_now",
]
