"""Lists, saved feeds, feed generators and muted words (docs/FEEDS.md).

- `lists` and `list_members`: a user's lists of accounts they follow; members keyed by
  the list first (a list feed reads them in one range).
- `saved_feeds`: feed definitions (sources, filters, order) as JSON, pinned and ordered.
- `feed_generators`: outside services that answer skeleton requests; `secret` signs them.
- `muted_words`: hidden in every feed and thread of their user.
A create with an Idempotency-Key keeps it (unique per owner) with its request hash.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def _keyed() -> list[sa.Column[str]]:
    return [sa.Column("idempotency_key", sa.Text()), sa.Column("request_hash", sa.Text())]


def upgrade() -> None:
    stamp = sa.DateTime(timezone=True)
    op.create_table(
        "lists",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("replies", sa.String(16), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        *_keyed(),
    )
    op.create_index("ix_lists_owner_id_id", "lists", ["owner_id", "id"])
    op.create_index(
        "ux_lists_owner_id_idempotency_key", "lists", ["owner_id", "idempotency_key"], unique=True
    )
    op.create_table(
        "list_members",
        sa.Column("list_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("member_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", stamp, nullable=False),
    )
    op.create_table(
        "saved_feeds",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("definition", sa.JSON(), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        *_keyed(),
    )
    op.create_index("ix_saved_feeds_owner_id_position", "saved_feeds", ["owner_id", "position"])
    op.create_index(
        "ux_saved_feeds_owner_id_idempotency_key",
        "saved_feeds",
        ["owner_id", "idempotency_key"],
        unique=True,
    )
    op.create_table(
        "feed_generators",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("uri", sa.Text(), nullable=False, unique=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("feedback", sa.Boolean(), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        *_keyed(),
    )
    op.create_index(
        "ux_feed_generators_owner_id_idempotency_key",
        "feed_generators",
        ["owner_id", "idempotency_key"],
        unique=True,
    )
    op.create_table(
        "muted_words",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("word", sa.Text(), primary_key=True),
        sa.Column("created_at", stamp, nullable=False),
    )


def downgrade() -> None:
    for table in ("muted_words", "feed_generators", "saved_feeds", "list_members", "lists"):
        op.drop_table(table)
