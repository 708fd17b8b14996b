"""Media pipeline: when the bytes arrived, alt text, the sizes a worker made, and the
post a medium is attached to.

- `uploaded_at`: a media row without bytes cannot be attached, and an upload URL
  works once. Rows from before are taken as uploaded (their bytes were stored with
  nothing recording it), so drafts keep working.
- `alt`: set at upload, shown with the image.
- `sizes` / `sized_at`: the smaller copies write/media_jobs.py makes; pending work is
  `sized_at IS NULL`, found through its index.
- `attached_to` / `avatar_of`: the post carrying the medium, or the user whose avatar
  it is, so its sizes reach them; media with neither after a day are orphans, deleted.

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
        batch.add_column(sa.Column("alt", sa.String(1000), nullable=False, server_default=""))
        batch.add_column(sa.Column("sizes", sa.JSON()))
        batch.add_column(sa.Column("sized_at", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("attached_to", sa.BigInteger()))
        batch.add_column(sa.Column("avatar_of", sa.BigInteger()))
    op.execute("UPDATE media SET uploaded_at = created_at")
    # Old media may be attached already (the posts hold a copy): never take them as orphans.
    op.execute("UPDATE media SET attached_to = 0")
    op.create_index("ix_media_sized_at_uploaded_at", "media", ["sized_at", "uploaded_at"])
    op.create_index("ix_media_attached_to_created_at", "media", ["attached_to", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_media_attached_to_created_at", "media")
    op.drop_index("ix_media_sized_at_uploaded_at", "media")
    with op.batch_alter_table("media") as batch:
        for column in ("avatar_of", "attached_to", "sized_at", "sizes", "alt", "uploaded_at"):
            batch.drop_column(column)
