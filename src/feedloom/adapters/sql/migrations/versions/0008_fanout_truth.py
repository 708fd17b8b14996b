"""Fan-out's own truth: outbox rows live until fanned out, dead letters, worker leases.

- `outbox.sent_at` / `lane` / `epoch`: the relay no longer deletes a row when it puts the
  event on the queue; it marks it sent, with the lane and the lane's stream epoch (a token
  that changes whenever the stream is created anew). The worker deletes the row once the
  fan-out is done. A sent row whose epoch is no longer the lane's was in a stream that was
  lost (a Redis failover, a deleted key): the relay sends it again.
- `dead_events`: events that failed fan-out every time they were tried, with the error,
  for `feedloom events` to list, inspect and replay.
- `worker_leases`: Snowflake worker IDs leased by running processes, renewed while they
  run, released on exit.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)
AutoIncrement = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("sent_at", Timestamp))
        batch.add_column(sa.Column("lane", sa.String(16)))
        batch.add_column(sa.Column("epoch", sa.String(64)))
    op.create_index("ix_outbox_sent_at_seq", "outbox", ["sent_at", "seq"])
    op.create_table(
        "dead_events",
        sa.Column("id", AutoIncrement, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("post_id", sa.BigInteger(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("lane", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("failed_at", Timestamp, nullable=False),
    )
    op.create_table(
        "worker_leases",
        sa.Column("worker_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("holder", sa.String(128), nullable=False),
        sa.Column("expires_at", Timestamp, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("worker_leases")
    op.drop_table("dead_events")
    op.drop_index("ix_outbox_sent_at_seq", table_name="outbox")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("epoch")
        batch.drop_column("lane")
        batch.drop_column("sent_at")
