"""The tables of apps (docs/INTEGRATION.md): keys, external IDs, the audit log and
webhooks (migration 0021). Kept beside schema.py, on the same metadata."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Index, String, Table, Text, false

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
