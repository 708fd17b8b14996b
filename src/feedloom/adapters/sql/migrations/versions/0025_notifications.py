"""Notifications (domain/notifications.py).

The outbox (and its dead letters) carry notification events: whom they notify and
the group they fold into. `notification_groups` holds one row per group, updated in
place by the worker; `users` keeps each reader's read marker (the newest group ID
read, never moving backwards) and the types they turned off. A mute also mutes the
account's notifications unless it was made with `{"notifications": false}`.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("outbox", "dead_events"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("target_id", sa.BigInteger()))
            batch.add_column(sa.Column("group_key", sa.String(64)))
    with op.batch_alter_table("mutes") as batch:
        batch.add_column(
            sa.Column("notifications", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("notifications_read", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("notifications_off", sa.String(128), nullable=False, server_default="")
        )
    op.create_table(
        "notification_groups",
        sa.Column("recipient_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("group_key", sa.String(64), primary_key=True),
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("accounts", sa.JSON(), nullable=False),
        sa.Column("accounts_count", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_notification_groups_recipient_id_id", "notification_groups", ["recipient_id", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_notification_groups_recipient_id_id", "notification_groups")
    op.drop_table("notification_groups")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notifications_off")
        batch.drop_column("notifications_read")
    with op.batch_alter_table("mutes") as batch:
        batch.drop_column("notifications")
    for table in ("outbox", "dead_events"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("group_key")
            batch.drop_column("target_id")
