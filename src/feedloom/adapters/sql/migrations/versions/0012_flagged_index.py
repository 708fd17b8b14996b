"""A partial index of the accounts flagged as suspicious.

The ranked feed takes the likes and comments of flagged accounts off its candidates'
displayed counts (`Engagement.flagged_counts`). Found from the flagged accounts, that
query costs in proportion to their engagement rather than to the candidates' like
counts; the index holds only the flagged rows, so it stays tiny.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

FLAGGED = sa.text("flagged_at IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_users_flagged_id",
        "users",
        ["id"],
        postgresql_where=FLAGGED,
        sqlite_where=FLAGGED,
    )


def downgrade() -> None:
    op.drop_index("ix_users_flagged_id", "users")
