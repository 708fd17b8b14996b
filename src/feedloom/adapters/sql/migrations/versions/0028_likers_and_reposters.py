"""A post's likers and reposters, newest first (GET /api/v1/statuses/{id}/favourited_by
and /reblogged_by): `likes` by (post_id, created_at, user_id), and the live reposts of
`posts` by (repost_of, id), a partial index holding reposts only.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

LIVE_REPOST = sa.text("repost_of IS NOT NULL AND deleted_at IS NULL")


def upgrade() -> None:
    op.create_index("ix_likes_post_id_created_at", "likes", ["post_id", "created_at", "user_id"])
    op.create_index(
        "ix_posts_repost_of_id",
        "posts",
        ["repost_of", "id"],
        postgresql_where=LIVE_REPOST,
        sqlite_where=LIVE_REPOST,
    )


def downgrade() -> None:
    op.drop_index("ix_posts_repost_of_id", "posts")
    op.drop_index("ix_likes_post_id_created_at", "likes")
