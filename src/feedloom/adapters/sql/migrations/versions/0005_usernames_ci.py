"""Usernames unique regardless of case; indexes to find people.

- `kim` and `KIM` cannot both exist: a unique index on lower(username). Existing
  accounts that collide keep the oldest one's name; the others are renamed to
  `<name>_<n>` (the smallest free n), so the index can be built on any old data.
- Prefix search on username and display name: indexes on their lowercase forms, in
  binary ("C") order on PostgreSQL so a prefix is one range of the index whatever the
  database's collation (adapters/sql/people.py queries exactly these expressions).
- Followers and followees newest first: (followee_id, created_at) and
  (follower_id, created_at), so a page of a big account's followers is a range scan.

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-01
"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _rename_case_duplicates()
    # Expression indexes, written out: Alembic has no portable form for them.
    op.execute("CREATE UNIQUE INDEX uq_users_username_lower ON users (lower(username))")
    if op.get_bind().dialect.name == "postgresql":
        # Binary order for prefix ranges; on SQLite the unique index above serves them.
        op.execute('CREATE INDEX ix_users_username_key ON users ((lower(username) COLLATE "C"))')
        op.execute('CREATE INDEX ix_users_name_key ON users ((lower(display_name) COLLATE "C"))')
    else:
        op.execute("CREATE INDEX ix_users_name_key ON users (lower(display_name))")
    op.create_index("ix_follows_followee_id_created_at", "follows", ["followee_id", "created_at"])
    op.create_index("ix_follows_follower_id_created_at", "follows", ["follower_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_follows_follower_id_created_at", "follows")
    op.drop_index("ix_follows_followee_id_created_at", "follows")
    op.execute("DROP INDEX ix_users_name_key")
    op.execute("DROP INDEX IF EXISTS ix_users_username_key")
    op.execute("DROP INDEX uq_users_username_lower")


def _rename_case_duplicates() -> None:
    bind = op.get_bind()
    users = sa.table("users", sa.column("id"), sa.column("username"), sa.column("created_at"))
    key = sa.func.lower(users.c.username)
    clashing = sa.select(key).group_by(key).having(sa.func.count() > 1).scalar_subquery()
    rows = bind.execute(
        sa.select(users.c.id, users.c.username)
        .where(key.in_(clashing))
        .order_by(users.c.created_at, users.c.id)
    ).all()
    if not rows:
        return
    taken = {name.lower() for (name,) in bind.execute(sa.select(users.c.username))}
    groups: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for user_id, name in rows:
        groups[name.lower()].append((user_id, name))
    for members in groups.values():
        for user_id, name in members[1:]:  # the oldest keeps its name
            n = 2
            while (candidate := f"{name[: 32 - len(str(n)) - 1]}_{n}").lower() in taken:
                n += 1
            taken.add(candidate.lower())
            bind.execute(sa.update(users).where(users.c.id == user_id).values(username=candidate))
