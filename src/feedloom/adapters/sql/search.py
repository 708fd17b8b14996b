"""Full-text search over live posts and over people's names, on the indexes the
database keeps by itself (migration 0022): in the transaction of every write that
changes a post's text, deletes it or renames an account, so a search never finds
what a reader could not find by reading (an edit is found by its new words at once,
a deleted post is not found).

PostgreSQL: GIN expression indexes on `to_tsvector('feedloom_search', ...)` (the
`simple` configuration behind `unaccent`); a query's words go through the same
configuration (`plainto_tsquery`, or `word:*` prefixes for people), so document and
query are cut and folded alike. SQLite: FTS5 tables with the `unicode61` tokenizer
(`remove_diacritics 2`, combining marks in words); each word is quoted, so nothing a
reader types is FTS5 syntax.

Relevance is the index's own score (`ts_rank`; FTS5's `bm25`, negated), scaled to an
integer so it can be a keyset cursor (domain/search.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Select,
    and_,
    bindparam,
    column,
    func,
    literal_column,
    or_,
    select,
    table,
    text,
)
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import among
from feedloom.adapters.sql.schema import posts, tags, users
from feedloom.domain.model import Visibility
from feedloom.domain.people import RankKey
from feedloom.domain.search import PostKey, SearchOrder, TagKey
from feedloom.ports.tags import TagRecord

CONFIG: ColumnElement[Any] = literal_column("'feedloom_search'::regconfig")
SCALE = 1_000_000_000  # a score's integer form: enough digits to keep its order
posts_fts = table("posts_fts", column("rowid", BigInteger))
users_fts = table("users_fts", column("rowid", BigInteger))


def fts_match(words: Sequence[str], prefix: bool) -> str:
    """An FTS5 query: every word, each a quoted string (a prefix with `*`)."""
    star = "*" if prefix else ""
    return " ".join('"' + word.replace('"', '""') + '"' + star for word in words)


def ts_prefixes(words: Sequence[str]) -> str:
    """A `to_tsquery` text: every word as a quoted prefix."""
    quoted = ("'" + word.replace("\\", "\\\\").replace("'", "''") + "':*" for word in words)
    return " & ".join(quoted)


class SqlSearch:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def find_tags(self, prefix: str, after: TagKey | None, limit: int) -> list[TagRecord]:
        async with self._engine.connect() as conn:
            rows = (await conn.execute(tags_query(self._dialect, prefix, after, limit))).all()
        return [TagRecord(row.id, row.name, row.posts_count) for row in rows]

    async def find_posts(
        self,
        words: Sequence[str],
        readable_authors: Collection[int],
        after: PostKey | None,
        limit: int,
        order: SearchOrder,
    ) -> list[PostKey]:
        async with self._engine.connect() as conn:
            query = self.posts_query(words, readable_authors, after, limit, order)
            rows = (await conn.execute(query)).all()
        return [PostKey(int(row.score), row.id) for row in rows]

    def posts_query(
        self,
        words: Sequence[str],
        readable_authors: Collection[int],
        after: PostKey | None,
        limit: int,
        order: SearchOrder,
    ) -> Select[Any]:
        """Live posts holding every word that the reader may read by their visibility
        (public, or by one of `readable_authors`); the read path filters the rest."""
        query: Select[Any]
        score: ColumnElement[Any]
        if self._dialect == "postgresql":
            vector = func.to_tsvector(CONFIG, posts.c.text)
            asked = func.plainto_tsquery(CONFIG, bindparam("q", " ".join(words)))
            score = func.cast(func.ts_rank(vector, asked) * SCALE, BigInteger)
            query = select(posts.c.id).where(vector.op("@@")(asked), posts.c.deleted_at.is_(None))
        else:
            score = literal_column(f"CAST(-bm25(posts_fts) * {SCALE} AS INTEGER)")
            query = (
                select(posts.c.id)
                .select_from(posts_fts.join(posts, posts.c.id == posts_fts.c.rowid))
                .where(literal_column("posts_fts").op("MATCH")(fts_match(words, prefix=False)))
            )
        readable = or_(
            posts.c.visibility == Visibility.PUBLIC.value,
            among(self._dialect, posts.c.author_id, readable_authors),
        )
        query = query.where(readable)
        if order is SearchOrder.NEWEST:
            if after is not None:
                query = query.where(posts.c.id < after.post_id)
            return (
                query.add_columns(literal_column("0").label("score"))
                .order_by(posts.c.id.desc())
                .limit(limit)
            )
        ranked = query.add_columns(score.label("score")).subquery()
        outer = select(ranked.c.id, ranked.c.score)
        if after is not None:
            outer = outer.where(_after(ranked.c.score, ranked.c.id, after.score, after.post_id))
        return outer.order_by(ranked.c.score.desc(), ranked.c.id.desc()).limit(limit)


def tags_query(dialect: str, prefix: str, after: TagKey | None, limit: int) -> Select[Any]:
    """Tags whose name starts with `prefix`, most used first, then oldest: one range of
    the name in binary order (migration 0024), then a sort of the matches."""
    name: ColumnElement[str] = tags.c.name.collate("C") if dialect == "postgresql" else tags.c.name
    query = select(tags.c.id, tags.c.name, tags.c.posts_count).where(
        name >= prefix, name < prefix_end(prefix)
    )
    if after is not None:
        query = query.where(
            or_(
                tags.c.posts_count < after.posts_count,
                and_(tags.c.posts_count == after.posts_count, tags.c.id > after.tag_id),
            )
        )
    return query.order_by(tags.c.posts_count.desc(), tags.c.id).limit(limit)


def prefix_end(prefix: str) -> str:
    """The least string above every string that starts with `prefix` (code point order,
    which is the UTF-8 byte order a binary collation keeps)."""
    last = ord(prefix[-1])
    return prefix[:-1] + chr(last + 1) if last < 0x10FFFF else prefix + "\U0010ffff"


def people_query(
    dialect: str,
    words: Sequence[str],
    exclude: Collection[int],
    after: RankKey | None,
    limit: int,
) -> Select[Any]:
    """Accounts with a word of their username or display name starting with each word
    asked, more followers first, then by id (adapters/sql/people.py)."""
    query = select(users.c.id, users.c.followers)
    if dialect == "postgresql":
        names = users.c.username + " " + users.c.display_name
        asked = func.to_tsquery(CONFIG, bindparam("q", ts_prefixes(words)))
        query = query.where(func.to_tsvector(CONFIG, names).op("@@")(asked))
    else:
        match = literal_column("users_fts").op("MATCH")(fts_match(words, prefix=True))
        query = query.select_from(users_fts.join(users, users.c.id == users_fts.c.rowid)).where(
            match
        )
    if exclude:
        query = query.where(users.c.id.not_in(list(exclude)))
    if after is not None:
        query = query.where(
            or_(
                users.c.followers < after.followers,
                and_(users.c.followers == after.followers, users.c.id > after.user_id),
            )
        )
    return query.order_by(users.c.followers.desc(), users.c.id).limit(limit)


def _after(
    score: ColumnElement[Any], post_id: ColumnElement[Any], last_score: int, last_id: int
) -> ColumnElement[bool]:
    return or_(score < last_score, and_(score == last_score, post_id < last_id))


async def drop_post_search_index(engine: AsyncEngine) -> None:
    """Stop indexing posts (`feedloom bench search` only, on its scratch store): what
    the write path costs without the index, measured in the same sitting."""
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            await conn.execute(text("DROP INDEX IF EXISTS ix_posts_search"))
        else:
            for trigger in ("posts_fts_insert", "posts_fts_update", "posts_fts_delete"):
                await conn.execute(text(f"DROP TRIGGER IF EXISTS {trigger}"))
