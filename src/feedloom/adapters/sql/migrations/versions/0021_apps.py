"""Apps: server-side API keys, the app's own user IDs, and an audit of key use.

- `apps`: one row per app (`feedloom apps create`): the SHA-256 of its API key
  (unique: a key is looked up by it), scopes, the HS256 secret or the public keys of
  the user tokens it signs, and whether such a token may create its user.
- `app_users(app_id, external_id) -> user_id`: the app's IDs for its users, unique per
  app; erased with the account.
- `app_audit`: every request an API key authenticated (app, action, time).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "apps",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(256), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("token_secret", sa.String(128), nullable=False),
        sa.Column("algorithms", sa.String(64), nullable=False),
        sa.Column("jwks", sa.Text()),
        sa.Column("jwks_url", sa.String(512)),
        sa.Column("create_users", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("rotated_at", Timestamp),
        sa.Column("revoked_at", Timestamp),
    )
    op.create_table(
        "app_users",
        sa.Column("app_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("external_id", sa.String(128), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False, unique=True),
    )
    op.create_table(
        "app_audit",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("app_id", sa.BigInteger(), nullable=False),
        sa.Column("action", sa.String(160), nullable=False),
        sa.Column("at", Timestamp, nullable=False),
    )
    op.create_index("ix_app_audit_app_id_at", "app_audit", ["app_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_app_audit_app_id_at", "app_audit")
    op.drop_table("app_audit")
    op.drop_table("app_users")
    op.drop_table("apps")
