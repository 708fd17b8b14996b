"""The tables of apps (docs/INTEGRATION.md): keys, external IDs, the audit log and
webhooks (migration 0021). Kept beside schema.py, on the same metadata."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Index, Integer, String, Table, Text, false

from feedloom.adapters.sql.schema import AutoIncrement, Timestamp, metadata

apps = Table(
    "apps",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    Column("scopes", String(256), nullable=False),  # comma-separated (domain/apps.py)
    Column("key_hash", String(64), nullable=False, unique=True),  # SHA-256 of the API key
    # The HS256 key of the app's user tokens: a shared secret, so kept as it was issued.
    Column("token_secret", String(128), nullable=False),
    Column("algorithms", String(64), nullable=False),  # comma-separated, pinned
    Column("jwks", Text),  # public keys of EdDSA/RS256 user tokens (JSON Web Key Set)
    Column("jwks_url", String(512)),
    Column("create_users", Boolean, nullable=False, server_default=false()),
    Column("created_at", Timestamp, nullable=False),
    Column("rotated_at", Timestamp),
    Column("revoked_at", Timestamp),
)

# An app's user: its own ID for them -> ours. Erasing the account drops the link.
app_users = Table(
    "app_users",
    metadata,
    Column("app_id", BigInteger, primary_key=True, autoincrement=False),
    Column("external_id", String(128), primary_key=True),
    Column("user_id", BigInteger, nullable=False, unique=True),
)

# Every request an API key authenticated: which app, what it did, when.
app_audit = Table(
    "app_audit",
    metadata,
    Column("id", AutoIncrement, primary_key=True, autoincrement=True),
    Column("app_id", BigInteger, nullable=False),
    Column("action", String(160), nullable=False),
    Column("at", Timestamp, nullable=False),
    Index("ix_app_audit_app_id_at", "app_id", "at"),
)

# An app's subscription of a URL to event types (migration 0023).
webhooks = Table(
    "webhooks",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("app_id", BigInteger, nullable=False, index=True),
    Column("url", String(2048), nullable=False),
    Column("events", String(1024), nullable=False),  # comma-separated types
    Column("secret", String(128), nullable=False),  # whsec_…, signs every delivery
    Column("created_at", Timestamp, nullable=False),
)

# One event for one webhook: sent until a 2xx, retried with backoff, dead after a day.
# Its ID is the `webhook-id` every try carries, so a receiver drops a repeat.
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("webhook_id", BigInteger, nullable=False),
    Column("event_key", String(64), nullable=False),  # type:object, unique per webhook
    Column("type", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("state", String(8), nullable=False),  # pending | done | dead
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_attempt_at", Timestamp, nullable=False),
    Column("retry_from", Timestamp, nullable=False),  # the day of retries counts from here
    Column("last_error", String(300)),
    Column("finished_at", Timestamp),
    Index("ix_webhook_deliveries_key", "webhook_id", "event_key", unique=True),
    Index("ix_webhook_deliveries_due", "state", "next_attempt_at"),
)
