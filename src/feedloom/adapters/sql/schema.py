"""The durable store's tables (SQLAlchemy Core). Alembic migrations create them;
this module is what queries are written against.

Every hot query is by key: posts by `id`, author timelines by `(author_id, id)`,
followers by `(followee_id, follower_id)`, followees by `(follower_id, followee_id)`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Double,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    false,
    not_,
    text,
)

metadata = MetaData()

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL wants a BIGINT.
AutoIncrement = BigInteger().with_variant(Integer(), "sqlite")
Timestamp = DateTime(timezone=True)
ThreadPath = Text().with_variant(Text(collation="C"), "postgresql")
LIVE_REPOST = text("repost_of IS NOT NULL AND deleted_at IS NULL")

users = Table(
    "users",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("username", String(32), nullable=False, unique=True),
    Column("display_name", String(64), nullable=False),
    Column("avatar", String(512)),
    Column("bio", String(300), nullable=False, server_default=""),  # migration 0006
    Column("password_hash", String(256), nullable=False),
    Column("followers", Integer, nullable=False, server_default="0"),
    Column("following", Integer, nullable=False, server_default="0"),
    Column("pulled", Boolean, nullable=False, server_default="0"),
    Column("feed_order", String(16)),
    Column("created_at", Timestamp, nullable=False),
    Column("last_active_at", Timestamp),
    # Account lifecycle (migration 0004): NULL is an ordinary, active account.
    Column("role", String(16)),
    Column("suspended_at", Timestamp),
    Column("deleted_at", Timestamp),
    Column("flagged_at", Timestamp),  # migration 0011: suspicious, engagement not ranked
    # Migration 0025: the notifications read marker (a group ID) and the types turned off.
    Column("notifications_read", BigInteger, nullable=False, server_default="0"),
    Column("notifications_off", String(128), nullable=False, server_default=""),
    # Migration 0026: the Mastodon markers' versions and times, and the home marker.
    Column("notifications_read_version", Integer, nullable=False, server_default="0"),
    Column("notifications_read_at", Timestamp),
    Column("home_read", BigInteger, nullable=False, server_default="0"),
    Column("home_read_version", Integer, nullable=False, server_default="0"),
    Column("home_read_at", Timestamp),
    # Migration 0012: the few flagged accounts, so their engagement is found from them.
    Index(
        "ix_users_flagged_id",
        "id",
        postgresql_where=text("flagged_at IS NOT NULL"),
        sqlite_where=text("flagged_at IS NOT NULL"),
    ),
    # Popular accounts for suggestions, walked from the top (migration 0016).
    Index("ix_users_followers_id", "followers", "id"),
    # Migration 0005 adds expression indexes: unique lower(username), and lowercase
    # username and display name in binary order for prefix search (adapters/sql/people.py).
)

# An account neither suspended nor deleted. A hidden one (suspended or deleted) may not
# sign in or act, and what it wrote (posts, comments, and the counts of those) is hidden
# from everyone (domain/visibility.py): every query that decides either tests these.
account_live = and_(users.c.suspended_at.is_(None), users.c.deleted_at.is_(None))
account_hidden = not_(account_live)

tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", BigInteger, nullable=False, index=True),
    Column("created_at", Timestamp, nullable=False),
    Column("last_used_at", Timestamp),  # migration 0009: renewed on use, at most hourly
    # Migration 0018: a session opened through OAuth names its app and its scopes.
    Column("app_id", BigInteger),
    Column("scopes", String(512)),
)

# OAuth 2 (migration 0019): client apps, authorization codes, app-only tokens.
oauth_apps = Table(
    "oauth_apps",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("client_id", String(64), nullable=False, unique=True),
    Column("secret_hash", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("website", String(512)),
    Column("redirect_uris", Text, nullable=False),  # one per line
    Column("scopes", String(512), nullable=False),
    Column("created_at", Timestamp, nullable=False),
)
oauth_codes = Table(
    "oauth_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("app_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("redirect_uri", Text, nullable=False),
    Column("scopes", String(512), nullable=False),
    Column("challenge", String(128)),
    Column("challenge_method", String(8)),
    Column("expires_at", Timestamp, nullable=False),
)
oauth_app_tokens = Table(
    "oauth_app_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("app_id", BigInteger, nullable=False, index=True),
    Column("scopes", String(512), nullable=False),
    Column("created_at", Timestamp, nullable=False),
)

# Where each account signed in from (migration 0014): a digest of the client's address
# per successful sign-in, so the per-account sign-in limit spares known clients.
known_clients = Table(
    "known_clients",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("client", String(64), primary_key=True),
    Column("signed_in_at", Timestamp, nullable=False),
)

posts = Table(
    "posts",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("author_id", BigInteger, nullable=False),
    Column("text", Text, nullable=False),
    Column("media", JSON, nullable=False),
    Column("visibility", String(16), nullable=False),
    Column("deleted_at", Timestamp),
    # Migration 0011: NULL, "held" (waiting for a moderator) or "released".
    Column("moderation", String(16)),
    Column("moderation_reason", String(200)),
    # Migration 0013: replies (domain/threads.py). `thread_path` is set on replies only,
    # in byte order on PostgreSQL (hex digits; a prefix range is a subtree).
    Column("in_reply_to", BigInteger),
    Column("reply_to_author_id", BigInteger),
    Column("thread_path", ThreadPath),
    # Migration 0015: reposts and quotes (domain/reposts.py); the counts change in the
    # transaction of the repost or quote that changes them.
    Column("repost_of", BigInteger),
    Column("quote_of", BigInteger),
    Column("reposts", Integer, nullable=False, server_default="0"),
    Column("quotes", Integer, nullable=False, server_default="0"),
    # Migration 0018: the text's facets as written (domain/facets.py); NULL before.
    Column("facets", JSON),
    Column("edited_at", Timestamp),  # migration 0022: NULL until the first edit
    Index("ix_posts_author_id_id", "author_id", "id"),
    Index("ix_posts_moderation_id", "moderation", "id"),
    Index("ix_posts_in_reply_to_id", "in_reply_to", "id"),
    Index("ix_posts_thread_path", "thread_path"),
    # One live repost per (reposter, original): a retried PUT creates nothing.
    Index(
        "ux_posts_author_id_repost_of",
        "author_id",
        "repost_of",
        unique=True,
        postgresql_where=LIVE_REPOST,
        sqlite_where=LIVE_REPOST,
    ),
    # Migration 0028: a post's live reposts, newest first (reblogged_by).
    Index(
        "ix_posts_repost_of_id",
        "repost_of",
        "id",
        postgresql_where=LIVE_REPOST,
        sqlite_where=LIVE_REPOST,
    ),
)

# Migration 0022 also adds the search indexes the database keeps by itself (GIN on
# PostgreSQL, FTS5 tables and triggers on SQLite): adapters/sql/search.py queries them.

# What a post said before each edit (migration 0022), version 1 first; the current
# version is the post's row.
post_versions = Table(
    "post_versions",
    metadata,
    Column("post_id", BigInteger, primary_key=True, autoincrement=False),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("text", Text, nullable=False),
    Column("media", JSON, nullable=False),
    Column("written_at", Timestamp, nullable=False),
)

# One report per (post, reporter): reporting again changes nothing (migration 0011).
reports = Table(
    "reports",
    metadata,
    Column("post_id", BigInteger, primary_key=True, autoincrement=False),
    Column("reporter_id", BigInteger, primary_key=True, autoincrement=False),
    Column("reason", String(500), nullable=False),
    Column("created_at", Timestamp, nullable=False),
)

media = Table(
    "media",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("owner_id", BigInteger, nullable=False, index=True),
    Column("url", String(512), nullable=False),
    Column("width", Integer, nullable=False),
    Column("height", Integer, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    # Migration 0007: set once, by the one upload; alt text; sizes made by a worker.
    Column("uploaded_at", Timestamp),
    Column("alt", String(1000), nullable=False, server_default=""),
    Column("sizes", JSON),
    Column("sized_at", Timestamp),
    Column("attached_to", BigInteger),
    Column("avatar_of", BigInteger),
    # Migration 0017: uploaded straight to the object store, not checked yet.
    Column("pending", Boolean, nullable=False, server_default=false()),
    Index("ix_media_sized_at_uploaded_at", "sized_at", "uploaded_at"),
    Index("ix_media_attached_to_created_at", "attached_to", "created_at"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("key", String(255), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("post_id", BigInteger, nullable=False),  # or the comment's ID, by `kind`
    Column("created_at", Timestamp, nullable=False, index=True),
    Column("kind", String(16), nullable=False, server_default="post"),  # migration 0009
)

outbox = Table(
    "outbox",
    metadata,
    Column("seq", AutoIncrement, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("post_id", BigInteger, nullable=False),
    Column("author_id", BigInteger, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    # migration 0008: sent, not yet fanned out (the worker deletes the row when done)
    Column("sent_at", Timestamp),
    Column("lane", String(16)),
    Column("epoch", String(64)),
    # migration 0025: a notification event's recipient and group (domain/notifications.py)
    Column("target_id", BigInteger),
    Column("group_key", String(128)),  # migration 0027: an external ID too (user.deleted)
    Index("ix_outbox_sent_at_seq", "sent_at", "seq"),
    sqlite_autoincrement=True,  # migration 0027: a seq is never reused (webhooks key by it)
)

# migration 0008: events that failed fan-out every time (`feedloom events`)
dead_events = Table(
    "dead_events",
    metadata,
    Column("id", AutoIncrement, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("post_id", BigInteger, nullable=False),
    Column("author_id", BigInteger, nullable=False),
    Column("lane", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("error", Text, nullable=False),
    Column("failed_at", Timestamp, nullable=False),
    Column("target_id", BigInteger),  # migration 0025, as in the outbox
    Column("group_key", String(128)),
)

# migration 0008: Snowflake worker IDs held by running processes
worker_leases = Table(
    "worker_leases",
    metadata,
    Column("worker_id", Integer, primary_key=True, autoincrement=False),
    Column("holder", String(128), nullable=False),
    Column("expires_at", Timestamp, nullable=False),
)

follows = Table(
    "follows",
    metadata,
    Column("follower_id", BigInteger, primary_key=True, autoincrement=False),
    Column("followee_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
    # Migration 0015: false keeps the follow without the followee's reposts.
    Column("reposts", Boolean, nullable=False, server_default="1"),
    Index("ix_follows_followee_id_follower_id", "followee_id", "follower_id", unique=True),
    # Followers and followees newest first (migration 0005).
    Index("ix_follows_followee_id_created_at", "followee_id", "created_at"),
    Index("ix_follows_follower_id_created_at", "follower_id", "created_at"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", BigInteger, primary_key=True, autoincrement=False),
    Column("blocked_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
    Index("ix_blocks_blocked_id_blocker_id", "blocked_id", "blocker_id", unique=True),
)

mutes = Table(
    "mutes",
    metadata,
    Column("muter_id", BigInteger, primary_key=True, autoincrement=False),
    Column("muted_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
    # Migration 0025: the mute silences the account's notifications too.
    Column("notifications", Boolean, nullable=False, server_default="1"),
)

# Migration 0025: one row per notification group, updated in place (domain/notifications.py).
notification_groups = Table(
    "notification_groups",
    metadata,
    Column("recipient_id", BigInteger, primary_key=True, autoincrement=False),
    Column("group_key", String(64), primary_key=True),
    Column("id", BigInteger, nullable=False),
    Column("post_id", BigInteger, nullable=False),
    Column("accounts", JSON, nullable=False),
    Column("accounts_count", Integer, nullable=False),
    Column("updated_at", Timestamp, nullable=False),
    Index("ix_notification_groups_recipient_id_id", "recipient_id", "id"),
)

suggestion_dismissals = Table(
    "suggestion_dismissals",  # migration 0016: never suggested to this user again
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("dismissed_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
)

likes = Table(
    "likes",
    metadata,
    Column("post_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
    Index("ix_likes_user_id_post_id", "user_id", "post_id", unique=True),
    # Migration 0028: a post's likers, newest first (favourited_by).
    Index("ix_likes_post_id_created_at", "post_id", "created_at", "user_id"),
)

# Ranking feature: reader -> author affinity as (raw, updated_at), see ranking/affinity.py.
# Derived from likes and comments (`feedloom affinity rebuild` recomputes it); the feed
# reads one reader's row for many authors at once, hence the (reader_id, author_id) key.
affinities = Table(
    "affinities",
    metadata,
    Column("reader_id", BigInteger, primary_key=True, autoincrement=False),
    Column("author_id", BigInteger, primary_key=True, autoincrement=False),
    Column("raw", Double, nullable=False),
    Column("updated_at", Timestamp, nullable=False),
)


# Migration 0018: mentions, hashtags and followed tags (domain/facets.py), written in the
# transaction of the post (adapters/sql/facets.py).

# Whom a post mentions: the author's post by the mentioned user's ID is what
# notifications read ("mentions of me, newest first").
post_mentions = Table(
    "post_mentions",
    metadata,
    Column("post_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("author_id", BigInteger, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    Index("ix_post_mentions_user_id_post_id", "user_id", "post_id", unique=True),
)

# A tag's name is its normal form (NFKC + casefold); the ID keys the sketches of
# trending tags. `posts_count`: its live public posts, kept in the posts' transactions.
tags = Table(
    "tags",
    metadata,
    Column("id", AutoIncrement, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False),
    Column("posts_count", Integer, nullable=False, server_default="0"),
    Index("ux_tags_name", "name", unique=True),
)

# Live public posts by tag, newest first on (tag_id, post_id): a tag page and a
# followed tag's pull are one index range. Rows go with their post's deletion.
post_tags = Table(
    "post_tags",
    metadata,
    Column("tag_id", BigInteger, primary_key=True, autoincrement=False),
    Column("post_id", BigInteger, primary_key=True, autoincrement=False),
    Column("author_id", BigInteger, nullable=False),
    Column("public", Boolean, nullable=False),
    Index("ix_post_tags_post_id", "post_id"),
    Index("ix_post_tags_author_id_post_id", "author_id", "post_id"),
)

tag_follows = Table(
    "tag_follows",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("tag_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
)

# Lists, saved feeds, generators and muted words (migration 0020, docs/FEEDS.md). A
# create with an Idempotency-Key stores it with its request hash: a retry finds the row.
lists = Table(
    "lists",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("owner_id", BigInteger, nullable=False),
    Column("title", Text, nullable=False),
    Column("replies", String(16), nullable=False),
    Column("exclusive", Boolean, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    Column("idempotency_key", Text),
    Column("request_hash", Text),
    Index("ix_lists_owner_id_id", "owner_id", "id"),
    Index("ux_lists_owner_id_idempotency_key", "owner_id", "idempotency_key", unique=True),
)

list_members = Table(
    "list_members",
    metadata,
    Column("list_id", BigInteger, primary_key=True, autoincrement=False),
    Column("member_id", BigInteger, primary_key=True, autoincrement=False),
    Column("created_at", Timestamp, nullable=False),
)

saved_feeds = Table(
    "saved_feeds",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("owner_id", BigInteger, nullable=False),
    Column("name", Text, nullable=False),
    Column("definition", JSON, nullable=False),
    Column("pinned", Boolean, nullable=False),
    Column("position", Integer, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    Column("idempotency_key", Text),
    Column("request_hash", Text),
    Index("ix_saved_feeds_owner_id_position", "owner_id", "position"),
    Index("ux_saved_feeds_owner_id_idempotency_key", "owner_id", "idempotency_key", unique=True),
)

feed_generators = Table(
    "feed_generators",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("owner_id", BigInteger, nullable=False),
    Column("uri", Text, nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("secret", Text, nullable=False),
    Column("feedback", Boolean, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    Column("idempotency_key", Text),
    Column("request_hash", Text),
    Index(
        "ux_feed_generators_owner_id_idempotency_key", "owner_id", "idempotency_key", unique=True
    ),
)

muted_words = Table(
    "muted_words",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("word", Text, primary_key=True),
    Column("created_at", Timestamp, nullable=False),
)
