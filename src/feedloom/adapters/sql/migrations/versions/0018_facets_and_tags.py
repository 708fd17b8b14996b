"""Facets, mentions, hashtags and followed tags (issue 34, domain/facets.py).

- `posts.facets`: the text's mentions, tags and links with their offsets, parsed once
  when the post is written (NULL for posts written before: they show no facets).
- `post_mentions`: who a post mentions, by user first for "mentions of me".
- `tags`: one row per normal-form name, with its count of live public posts.
- `post_tags`: live posts by tag (a tag page and a followed tag's pull are one range
  of the primary key).
- `tag_follows`: the tags a user follows.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

AutoIncrement = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("posts", sa.Column("facets", sa.JSON()))
    op.create_table(
        "post_mentions",
        sa.Column("post_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
    )
    op.create_index(
        "ix_post_mentions_user_id_post_id", "post_mentions", ["user_id", "post_id"], unique=True
    )
    op.create_table(
        "tags",
        sa.Column("id", AutoIncrement, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("posts_count", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_index("ux_tags_name", "tags", ["name"], unique=True)
    op.create_table(
        "post_tags",
        sa.Column("tag_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("post_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_post_tags_post_id", "post_tags", ["post_id"])
    op.create_index("ix_post_tags_author_id_post_id", "post_tags", ["author_id", "post_id"])
    op.create_table(
        "tag_follows",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("tag_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", Timestamp, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tag_follows")
    op.drop_index("ix_post_tags_author_id_post_id", "post_tags")
    op.drop_index("ix_post_tags_post_id", "post_tags")
    op.drop_table("post_tags")
    op.drop_index("ux_tags_name", "tags")
    op.drop_table("tags")
    op.drop_index("ix_post_mentions_user_id_post_id", "post_mentions")
    op.drop_table("post_mentions")
    op.drop_column("posts", "facets")
