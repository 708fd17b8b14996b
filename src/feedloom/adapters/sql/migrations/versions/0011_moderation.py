"""Moderation: posts held before fan-out, reports, and accounts flagged as suspicious.

- `posts.moderation`: NULL for an ordinary post, "held" while it waits in the
  moderation queue (visible to its author only, not fanned out), "released" once a
  moderator let it through (fan-out does not check it again). A rejected post is
  tombstoned like any deleted post. `moderation_reason` says why the check held it.
- `reports`: one row per (post, reporter): reporting twice is one report.
- `users.flagged_at`: a moderator flagged the account as suspicious; its likes and
  comments stop counting toward ranking (trending, affinity).

Revision ID: 0011
Revises: 0008
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("moderation", sa.String(16)))
        batch.add_column(sa.Column("moderation_reason", sa.String(200)))
    # The queue is read by (moderation, id): held posts, oldest first.
    op.create_index("ix_posts_moderation_id", "posts", ["moderation", "id"])
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("flagged_at", sa.DateTime(timezone=True)))
    op.create_table(
        "reports",
        sa.Column("post_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("reporter_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reports")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("flagged_at")
    op.drop_index("ix_posts_moderation_id", "posts")
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("moderation_reason")
        batch.drop_column("moderation")
