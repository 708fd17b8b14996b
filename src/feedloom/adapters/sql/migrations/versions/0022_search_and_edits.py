"""Full-text search over posts and people, and edits with history.

Search indexes are kept by the database itself, in the transaction of every write
that changes what they cover (a post published, edited, deleted or erased; an
account's names changed), so no write path can forget them:

- PostgreSQL: a text search configuration `feedloom_search`, a copy of `simple` (no
  stemming, no stop words: it works for any language) whose words go through
  `unaccent` first (so `cafe` finds `Café`), and GIN expression indexes on
  `to_tsvector('feedloom_search', text)` of live posts and on the words of each
  account's username and display name. The default parser keeps Bengali words whole.
- SQLite: FTS5 tables with external content (`posts_fts` over live posts, `users_fts`
  over usernames and display names), kept by triggers; the `unicode61` tokenizer with
  `remove_diacritics 2` and combining marks counted as letters (`M*`), so a Bengali
  word is one token, not cut at each vowel sign.

Edits: `posts.edited_at` (NULL: never edited) and `post_versions`, the versions a post
had before each edit (its current one is the row itself).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

FTS_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
LIVE = "deleted_at IS NULL"


def upgrade() -> None:
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("edited_at", sa.DateTime(timezone=True)))
    op.create_table(
        "post_versions",
        sa.Column("post_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("version", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("media", sa.JSON(), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        _postgres_indexes()
    else:
        _sqlite_indexes()


def _postgres_indexes() -> None:
    # unaccent is a trusted extension (PostgreSQL 13+): a database owner may create it.
    op.execute("CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public")
    found = op.get_bind().execute(
        sa.text(
            "SELECT n.nspname FROM pg_ts_dict d JOIN pg_namespace n ON n.oid = d.dictnamespace"
            " WHERE d.dictname = 'unaccent' LIMIT 1"
        )
    )
    where = found.scalar_one()
    op.execute("CREATE TEXT SEARCH CONFIGURATION feedloom_search (COPY = pg_catalog.simple)")
    op.execute(
        "ALTER TEXT SEARCH CONFIGURATION feedloom_search ALTER MAPPING FOR "
        f'hword, hword_part, word, asciihword, asciiword, hword_asciipart WITH "{where}".unaccent,'
        " pg_catalog.simple"
    )
    op.execute(
        "CREATE INDEX ix_posts_search ON posts USING gin "
        f"(to_tsvector('feedloom_search'::regconfig, text)) WHERE {LIVE}"
    )
    op.execute(
        "CREATE INDEX ix_users_search ON users USING gin "
        "(to_tsvector('feedloom_search'::regconfig, username || ' ' || display_name))"
    )


def _sqlite_indexes() -> None:
    op.execute(
        "CREATE VIRTUAL TABLE posts_fts USING fts5(text, content='posts', content_rowid='id',"
        f' tokenize="{FTS_TOKENIZER}")'
    )
    op.execute(
        "CREATE VIRTUAL TABLE users_fts USING fts5(username, display_name, content='users',"
        f" content_rowid='id', tokenize=\"{FTS_TOKENIZER}\")"
    )
    # External content: a row is taken out of the index with exactly what was put in.
    op.execute(
        "CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts WHEN new.deleted_at IS NULL "
        "BEGIN INSERT INTO posts_fts(rowid, text) VALUES (new.id, new.text); END"
    )
    # One trigger, two statements in this order: the old row out, then the new one in.
    op.execute(
        "CREATE TRIGGER posts_fts_update AFTER UPDATE OF text, deleted_at ON posts BEGIN "
        "INSERT INTO posts_fts(posts_fts, rowid, text) SELECT 'delete', old.id, old.text "
        "WHERE old.deleted_at IS NULL; INSERT INTO posts_fts(rowid, text) SELECT new.id, "
        "new.text WHERE new.deleted_at IS NULL; END"
    )
    op.execute(
        "CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts WHEN old.deleted_at IS NULL "
        "BEGIN INSERT INTO posts_fts(posts_fts, rowid, text) VALUES ('delete', old.id, old.text);"
        " END"
    )
    op.execute(
        "CREATE TRIGGER users_fts_insert AFTER INSERT ON users BEGIN INSERT INTO "
        "users_fts(rowid, username, display_name) VALUES (new.id, new.username, "
        "new.display_name); END"
    )
    op.execute(
        "CREATE TRIGGER users_fts_update AFTER UPDATE OF username, display_name ON users BEGIN "
        "INSERT INTO users_fts(users_fts, rowid, username, display_name) VALUES ('delete', "
        "old.id, old.username, old.display_name); INSERT INTO users_fts(rowid, username, "
        "display_name) VALUES (new.id, new.username, new.display_name); END"
    )
    op.execute(
        "CREATE TRIGGER users_fts_delete AFTER DELETE ON users BEGIN INSERT INTO "
        "users_fts(users_fts, rowid, username, display_name) VALUES ('delete', old.id, "
        "old.username, old.display_name); END"
    )
    op.execute(f"INSERT INTO posts_fts(rowid, text) SELECT id, text FROM posts WHERE {LIVE}")
    op.execute("INSERT INTO users_fts(users_fts) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_users_search")
        op.execute("DROP INDEX ix_posts_search")
        op.execute("DROP TEXT SEARCH CONFIGURATION feedloom_search")
    else:
        for trigger in (
            "posts_fts_insert",
            "posts_fts_update",
            "posts_fts_delete",
            "users_fts_insert",
            "users_fts_update",
            "users_fts_delete",
        ):
            op.execute(f"DROP TRIGGER {trigger}")
        op.execute("DROP TABLE posts_fts")
        op.execute("DROP TABLE users_fts")
    op.drop_table("post_versions")
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("edited_at")
