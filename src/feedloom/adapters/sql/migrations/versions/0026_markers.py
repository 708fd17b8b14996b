"""Read markers for the Mastodon-compatible API (`/api/v1/markers`).

The notifications marker is `users.notifications_read` (0025); it gains the version and
time Mastodon's Marker carries, moved with it. The home timeline's marker is new: where
a reader's apps last read their home timeline (an entry ID), its version and time.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column(
                "notifications_read_version", sa.Integer(), nullable=False, server_default="0"
            )
        )
        batch.add_column(sa.Column("notifications_read_at", sa.DateTime(timezone=True)))
        batch.add_column(
            sa.Column("home_read", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("home_read_version", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("home_read_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("home_read_at")
        batch.drop_column("home_read_version")
        batch.drop_column("home_read")
        batch.drop_column("notifications_read_at")
        batch.drop_column("notifications_read_version")
