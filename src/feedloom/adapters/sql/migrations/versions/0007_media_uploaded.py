"""Media: when the bytes arrived (a media row without them cannot be attached, and an
upload URL works once).

Rows from before this migration are taken as uploaded (their bytes were stored with
nothing recording it), so posts being drafted keep working.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("media") as batch:
        batch.add_column(sa.Column("uploaded_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE media SET uploaded_at = created_at")


def downgrade() -> None:
    with op.batch_alter_table("media") as batch:
        batch.drop_column("uploaded_at")
