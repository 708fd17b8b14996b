"""Replies: comments become reply posts (one concept, not two).

- `posts.in_reply_to`, `posts.reply_to_author_id`: the post replied to and its author
  (the reply rule reads the author without a second lookup).
- `posts.thread_path`: a reply's place in its thread (domain/threads.py), in byte
  order on PostgreSQL so a prefix range is a subtree.
- Every comment becomes a reply post with the comment's ID (so old comment IDs keep
  resolving, as posts and through the comments endpoints), its author and text, and
  its post's visibility. Comment Idempotency-Keys (kind "comment") already name these
  IDs. The comments table goes: the counts were counts of its rows, and are now counts
  of the live replies, the same number.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    path_type = sa.Text(collation="C") if postgres else sa.Text()
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("in_reply_to", sa.BigInteger()))
        batch.add_column(sa.Column("reply_to_author_id", sa.BigInteger()))
        batch.add_column(sa.Column("thread_path", path_type))
    hex16 = "lpad(to_hex({0}), 16, '0')" if postgres else "printf('%016x', {0})"
    op.execute(
        "INSERT INTO posts (id, author_id, text, media, visibility, in_reply_to,"
        " reply_to_author_id, thread_path) "
        "SELECT c.id, c.author_id, c.text, '[]', p.visibility, c.post_id, p.author_id, "
        f"{hex16.format('c.post_id')} || {hex16.format('c.id')} "
        "FROM comments c JOIN posts p ON p.id = c.post_id "
        "WHERE NOT EXISTS (SELECT 1 FROM posts q WHERE q.id = c.id)"
    )
    op.create_index("ix_posts_in_reply_to_id", "posts", ["in_reply_to", "id"])
    op.create_index("ix_posts_thread_path", "posts", ["thread_path"])
    op.drop_table("comments")


def downgrade() -> None:
    op.create_table(
        "comments",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(255)),
        sa.UniqueConstraint("post_id", "id", name="uq_comments_post_id_id"),
        sa.UniqueConstraint(
            "author_id", "idempotency_key", name="uq_comments_author_id_idempotency_key"
        ),
    )
    # Direct replies become comments again (their time from the ID is not recoverable
    # in portable SQL: the migration time stands in); deeper replies are lost.
    op.execute(
        "INSERT INTO comments (id, post_id, author_id, text, created_at) "
        "SELECT id, in_reply_to, author_id, text, CURRENT_TIMESTAMP FROM posts "
        "WHERE in_reply_to IS NOT NULL AND deleted_at IS NULL"
    )
    op.execute("DELETE FROM posts WHERE in_reply_to IS NOT NULL")
    op.drop_index("ix_posts_thread_path", "posts")
    op.drop_index("ix_posts_in_reply_to_id", "posts")
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("thread_path")
        batch.drop_column("reply_to_author_id")
        batch.drop_column("in_reply_to")
