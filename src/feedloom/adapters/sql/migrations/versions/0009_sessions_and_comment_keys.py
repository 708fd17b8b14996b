"""Sessions that expire when idle, and comment Idempotency-Keys kept with the post ones.

`tokens.last_used_at`: NULL until the token is first renewed (its `created_at` counts
until then), so no row is rewritten. `idempotency_keys.kind`: "post" or "comment", the
ID column holding the post's or the comment's ID; the comment keys kept so far on
`comments.idempotency_key` move here (without a request hash: "" replays as before), so
the one purge after `idempotency_ttl_hours` covers both.

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tokens") as tokens:
        tokens.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True)))
    with op.batch_alter_table("idempotency_keys") as keys:
        keys.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="post"))
    op.execute(
        "INSERT INTO idempotency_keys (user_id, key, request_hash, post_id, created_at, kind) "
        "SELECT c.author_id, c.idempotency_key, '', c.id, c.created_at, 'comment' "
        "FROM comments c WHERE c.idempotency_key IS NOT NULL AND NOT EXISTS ("
        "SELECT 1 FROM idempotency_keys k "
        "WHERE k.user_id = c.author_id AND k.key = c.idempotency_key)"
    )


def downgrade() -> None:
    op.execute("DELETE FROM idempotency_keys WHERE kind = 'comment'")
    with op.batch_alter_table("idempotency_keys") as keys:
        keys.drop_column("kind")
    with op.batch_alter_table("tokens") as tokens:
        tokens.drop_column("last_used_at")
