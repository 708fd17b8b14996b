"""Reposts and quotes (issue 33).

- `posts.repost_of`: a repost is a post row of its own (its own ID, outbox event and
  fan-out, like Mastodon's reblog statuses) that names the original. At most one live
  repost per (reposter, original): a partial unique index, so a retried or concurrent
  PUT creates one row. Unreposting tombstones the row; reposting again makes a new one.
- `posts.quote_of`: the post a quote embeds.
- `posts.reposts`, `posts.quotes`: how many live reposts and quotes a post has, kept in
  the same transaction as the row that changes them (they travel with the post's view).
- `follows.reposts`: false keeps following an account without its reposts
  (Mastodon's reblogs=false).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

LIVE_REPOST = sa.text("repost_of IS NOT NULL AND deleted_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("repost_of", sa.BigInteger()))
        batch.add_column(sa.Column("quote_of", sa.BigInteger()))
        batch.add_column(sa.Column("reposts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("quotes", sa.Integer(), nullable=False, server_default="0"))
    op.create_index(
        "ux_posts_author_id_repost_of",
        "posts",
        ["author_id", "repost_of"],
        unique=True,
        postgresql_where=LIVE_REPOST,
        sqlite_where=LIVE_REPOST,
    )
    with op.batch_alter_table("follows") as batch:
        batch.add_column(sa.Column("reposts", sa.Boolean(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("follows") as batch:
        batch.drop_column("reposts")
    op.execute("DELETE FROM posts WHERE repost_of IS NOT NULL")
    op.drop_index("ux_posts_author_id_repost_of", "posts")
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("quotes")
        batch.drop_column("reposts")
        batch.drop_column("quote_of")
        batch.drop_column("repost_of")
