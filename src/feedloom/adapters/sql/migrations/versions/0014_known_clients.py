"""Known sign-in clients: where each account signed in from.

`known_clients(user_id, client, signed_in_at)`: a digest of the client's address per
account that signed in from it, with the last time. A known client is spared the
per-account sign-in limit (write/sign_in.py), so a flood of wrong passwords from
elsewhere cannot lock the owner out. Erased with the account.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "known_clients",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("signed_in_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("known_clients")
