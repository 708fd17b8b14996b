"""Media sent straight to an object store, not checked yet.

With an S3-compatible store the client PUTs the image to the bucket through a
presigned URL, so the API never sees the bytes: a post may attach the medium once the
upload is there, but only the worker decodes, checks and re-encodes it
(write/media_jobs.py). `pending` marks that stretch: the medium is attached, its
bytes are not verified, and no reader is shown it. Every earlier row was checked when
it was uploaded through the API.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("media") as batch:
        batch.add_column(
            sa.Column("pending", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("media") as batch:
        batch.drop_column("pending")
