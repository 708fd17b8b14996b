"""Affinities: reader -> author ranking feature state (raw sum, as of updated_at).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "affinities",
        sa.Column("reader_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("author_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("raw", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("reader_id", "author_id"),
    )


def downgrade() -> None:
    op.drop_table("affinities")
