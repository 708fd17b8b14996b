"""Webhooks: an app's subscriptions, and each event's delivery to each of them.

- `webhooks`: URL, event types and signing secret (`whsec_…`) per subscription.
- `webhook_deliveries`: one row per (webhook, event), unique, so an event handled twice
  (the outbox delivers at least once) is sent once; `next_attempt_at` is both the retry
  schedule and the lease of a send in flight (a worker killed mid-send leaves the row
  due again, and it goes out again with the same ID).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("app_id", sa.BigInteger(), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("events", sa.String(1024), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
    )
    op.create_index("ix_webhooks_app_id", "webhooks", ["app_id"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("webhook_id", sa.BigInteger(), nullable=False),
        sa.Column("event_key", sa.String(64), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_attempt_at", Timestamp, nullable=False),
        sa.Column("retry_from", Timestamp, nullable=False),
        sa.Column("last_error", sa.String(300)),
        sa.Column("finished_at", Timestamp),
    )
    op.create_index(
        "ix_webhook_deliveries_key", "webhook_deliveries", ["webhook_id", "event_key"], unique=True
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["state", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_webhook_deliveries_due", "webhook_deliveries")
    op.drop_index("ix_webhook_deliveries_key", "webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_index("ix_webhooks_app_id", "webhooks")
    op.drop_table("webhooks")
