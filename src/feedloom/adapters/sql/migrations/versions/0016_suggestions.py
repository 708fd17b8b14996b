"""Who to follow: dismissed suggestions, and the index popular accounts are read by.

- `suggestion_dismissals`: a suggestion the user dismissed (DELETE
  /v1/users/suggestions/{id}) is never suggested to them again; keyed by the user first,
  so the exclusion is a primary-key probe.
- `ix_users_followers_id`: the most followed accounts, read from the top of the index
  (walked backward) until enough are found, instead of sorting every user.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "suggestion_dismissals",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("dismissed_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_users_followers_id", "users", ["followers", "id"])


def downgrade() -> None:
    op.drop_index("ix_users_followers_id", "users")
    op.drop_table("suggestion_dismissals")
