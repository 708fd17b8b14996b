"""OAuth 2 for the Mastodon-compatible API: apps, authorization codes, app tokens, and
the app and scopes of a session.

`oauth_apps`: registered client apps (`POST /api/v1/apps`); the client secret is kept as
a digest only. `oauth_codes`: authorization codes (digests), single-use, short-lived,
with the PKCE challenge. `oauth_app_tokens`: tokens of the `client_credentials` grant,
which act for an app and no user. `tokens.app_id` and `tokens.scopes`: a session opened
through OAuth is an ordinary session (listed, revocable, idle expiry) that names its app
and is limited to its scopes; NULL for a first-party session (`POST /v1/sessions`).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "oauth_apps",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("client_id", sa.String(64), nullable=False, unique=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("website", sa.String(512)),
        sa.Column("redirect_uris", sa.Text, nullable=False),
        sa.Column("scopes", sa.String(512), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "oauth_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("app_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("redirect_uri", sa.Text, nullable=False),
        sa.Column("scopes", sa.String(512), nullable=False),
        sa.Column("challenge", sa.String(128)),
        sa.Column("challenge_method", sa.String(8)),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "oauth_app_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("app_id", sa.BigInteger, nullable=False, index=True),
        sa.Column("scopes", sa.String(512), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("tokens") as tokens:
        tokens.add_column(sa.Column("app_id", sa.BigInteger))
        tokens.add_column(sa.Column("scopes", sa.String(512)))


def downgrade() -> None:
    with op.batch_alter_table("tokens") as tokens:
        tokens.drop_column("scopes")
        tokens.drop_column("app_id")
    op.drop_table("oauth_app_tokens")
    op.drop_table("oauth_codes")
    op.drop_table("oauth_apps")
