"""Tags found by prefix (GET /v1/search?type=tags): on PostgreSQL an index on the tag's
name in binary order ("C"), so a prefix is one range whatever the database's collation
(as migration 0005 does for usernames). SQLite compares binary anyway: its unique index
on the name serves.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute('CREATE INDEX ix_tags_name_c ON tags (name COLLATE "C")')


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_tags_name_c")
