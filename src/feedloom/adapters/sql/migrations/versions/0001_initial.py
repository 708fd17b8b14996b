"""Initial schema: users, tokens, posts, media, idempotency keys, outbox, graph, engagement.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("blocked_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id"),
    )
    op.create_index(
        "ix_blocks_blocked_id_blocker_id", "blocks", ["blocked_id", "blocker_id"], unique=True
    )
    op.create_table(
        "comments",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.Column("idempotency_key", sa.String(length=255), nullable=True),
        sa.UniqueConstraint("post_id", "id", name="uq_comments_post_id_id"),
        sa.UniqueConstraint(
            "author_id", "idempotency_key", name="uq_comments_author_id_idempotency_key"
        ),
    )
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("followee_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("follower_id", "followee_id"),
    )
    op.create_index(
        "ix_follows_followee_id_follower_id", "follows", ["followee_id", "follower_id"], unique=True
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "key"),
    )
    op.create_index(
        op.f("ix_idempotency_keys_created_at"), "idempotency_keys", ["created_at"], unique=False
    )
    op.create_table(
        "likes",
        sa.Column("post_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("post_id", "user_id"),
    )
    op.create_index("ix_likes_user_id_post_id", "likes", ["user_id", "post_id"], unique=True)
    op.create_table(
        "media",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("url", sa.String(length=512), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_media_owner_id"), "media", ["owner_id"], unique=False)
    op.create_table(
        "mutes",
        sa.Column("muter_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("muted_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("muter_id", "muted_id"),
    )
    op.create_table(
        "outbox",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    op.create_table(
        "posts",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("media", sa.JSON(), nullable=False),
        sa.Column("visibility", sa.String(length=16), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_posts_author_id_id", "posts", ["author_id", "id"], unique=False)
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(op.f("ix_tokens_user_id"), "tokens", ["user_id"], unique=False)
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("display_name", sa.String(length=64), nullable=False),
        sa.Column("avatar", sa.String(length=512), nullable=True),
        sa.Column("password_hash", sa.String(length=256), nullable=False),
        sa.Column("followers", sa.Integer(), server_default="0", nullable=False),
        sa.Column("following", sa.Integer(), server_default="0", nullable=False),
        sa.Column("pulled", sa.Boolean(), server_default="0", nullable=False),
        sa.Column("feed_order", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_active_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username"),
    )


def downgrade() -> None:

    op.drop_table("users")
    op.drop_index(op.f("ix_tokens_user_id"), table_name="tokens")
    op.drop_table("tokens")
    op.drop_index("ix_posts_author_id_id", table_name="posts")
    op.drop_table("posts")
    op.drop_table("outbox")
    op.drop_table("mutes")
    op.drop_index(op.f("ix_media_owner_id"), table_name="media")
    op.drop_table("media")
    op.drop_index("ix_likes_user_id_post_id", table_name="likes")
    op.drop_table("likes")
    op.drop_index(op.f("ix_idempotency_keys_created_at"), table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    op.drop_index("ix_follows_followee_id_follower_id", table_name="follows")
    op.drop_table("follows")
    op.drop_table("comments")
    op.drop_index("ix_blocks_blocked_id_blocker_id", table_name="blocks")
    op.drop_table("blocks")
