"""Account lifecycle: a role (moderator), suspension and deletion of an account.

All three are nullable columns on `users`: NULL is an ordinary, active account, so the
migration rewrites no row.

Revision ID: 0004
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as users:
        users.add_column(sa.Column("role", sa.String(16)))
        users.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True)))
        users.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    with op.batch_alter_table("users") as users:
        users.drop_column("deleted_at")
        users.drop_column("suspended_at")
        users.drop_column("role")
