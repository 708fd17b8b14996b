"""Every webhook event type from the outbox (write/webhooks.py).

- An outbox row's `seq` is never handed out twice: webhooks key a delivery by it (the
  same event delivered again is the same delivery). PostgreSQL's sequence never goes
  back; SQLite reused the largest rowid once the table was emptied, so its outbox is
  rebuilt with AUTOINCREMENT.
- `group_key` holds an erased account's external ID (`user.deleted`), up to 128
  characters, in the outbox and its dead letters.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _group_key(sa.String(64), sa.String(128))
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "outbox", recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass


def downgrade() -> None:
    _group_key(sa.String(128), sa.String(64))


def _group_key(old: sa.String, new: sa.String) -> None:
    for table in ("outbox", "dead_events"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("group_key", type_=new, existing_type=old)
