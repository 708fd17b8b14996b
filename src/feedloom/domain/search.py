"""What a search asks for: its words, its order, and where its pages are.

A query is at most `MAX_QUERY` characters and must hold a word (the `SEARCH_QUERY`
pattern of the OpenAPI document, domain/patterns.py): a run of letters, digits and
combining marks of any script of the Basic Multilingual Plane (a Bengali word keeps
its vowel signs, as the indexes do: adapters/sql/search.py). Everything else
(punctuation, operators, quotes) only separates words, so no query can reach the
index's own syntax. Case and
Latin accents are the index's business: `Café`, `cafe` and `CAFÉ` find the same posts.

Posts come newest first (`order=newest`, the cursor `n` and the last post's ID) or
by relevance (`order=relevance`: the index's score, scaled to an integer, then newest
first; the cursor `s`, score, `.`, ID). Tags: the normalised tag the query's first
word begins, most used first (the cursor `t`, posts, `.`, tag ID). People reuse the
people lists' cursor (domain/people.py). All are keysets, opaque to clients, with
patterns the OpenAPI document states; a cursor of one order or kind is refused by
another.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from feedloom.domain.errors import BadCursor, InvalidInput
from feedloom.domain.facets import normalize_tag
from feedloom.domain.ids import ID
from feedloom.domain.patterns import WORD_CHAR, decimal_up_to, whole
from feedloom.domain.people import SEARCH_CURSOR_PATTERN

MAX_QUERY = 200
MAX_SCORE = 2**63 - 1
NEWEST_CURSOR_PATTERN = whole(f"n(?:{ID})")
RELEVANCE_CURSOR_PATTERN = whole(f"s(?:0|{decimal_up_to(MAX_SCORE)})\\.(?:{ID})")
TAG_CURSOR_PATTERN = whole(f"t(?:0|{decimal_up_to(2**31 - 1)})\\.(?:{ID})")


class SearchType(StrEnum):
    POSTS = "posts"
    PEOPLE = "people"
    TAGS = "tags"


class SearchOrder(StrEnum):
    NEWEST = "newest"
    RELEVANCE = "relevance"


def search_words(query: str) -> list[str]:
    """The words of a query, in order, once each (422 if too long or wordless)."""
    if len(query) > MAX_QUERY:
        raise InvalidInput(f"q must be at most {MAX_QUERY} characters")
    words: list[str] = []
    current: list[str] = []
    for char in query + " ":
        if WORD_CHAR.match(char):
            current.append(char)
        elif current:
            words.append(unicodedata.normalize("NFC", "".join(current)).casefold())
            current = []
    if not words:
        raise InvalidInput("q has no word to search for (letters or digits)")
    return list(dict.fromkeys(words))


@dataclass(frozen=True, slots=True)
class PostKey:
    """A found post's place: the higher score first (0 for every post when newest
    first), then the newer post."""

    score: int
    post_id: int


def encode_post_cursor(order: SearchOrder, key: PostKey) -> str:
    if order is SearchOrder.NEWEST:
        return f"n{key.post_id}"
    return f"s{key.score}.{key.post_id}"


def decode_post_cursor(order: SearchOrder, cursor: str | None) -> PostKey | None:
    if cursor is None:
        return None
    if order is SearchOrder.NEWEST:
        if re.fullmatch(NEWEST_CURSOR_PATTERN, cursor) is None:
            raise BadCursor("this cursor is not one of a newest-first post search")
        return PostKey(0, int(cursor[1:]))
    if re.fullmatch(RELEVANCE_CURSOR_PATTERN, cursor) is None:
        raise BadCursor("this cursor is not one of a post search by relevance")
    score, post_id = cursor[1:].split(".")
    return PostKey(int(score), int(post_id))


def _inner(pattern: str) -> str:
    return pattern[len("^(?:") : -len(")$")]


# Whatever a search may hand back as `next_cursor`: posts (newest, relevance), people,
# tags.
ANY_SEARCH_CURSOR_PATTERN = whole(
    "|".join(
        _inner(pattern)
        for pattern in (
            NEWEST_CURSOR_PATTERN,
            RELEVANCE_CURSOR_PATTERN,
            SEARCH_CURSOR_PATTERN,
            TAG_CURSOR_PATTERN,
        )
    )
)


@dataclass(frozen=True, slots=True)
class TagKey:
    """A found tag's place: more posts first, then the older tag."""

    posts_count: int
    tag_id: int


def tag_prefix(query: str) -> str | None:
    """The normalised tag (domain/facets.py) the query's first word begins, `#` or not;
    None when that word can be no tag (digits only): nothing is found."""
    return normalize_tag(search_words(query)[0])


def encode_tag_cursor(key: TagKey) -> str:
    return f"t{key.posts_count}.{key.tag_id}"


def decode_tag_cursor(cursor: str | None) -> TagKey | None:
    if cursor is None:
        return None
    if re.fullmatch(TAG_CURSOR_PATTERN, cursor) is None:
        raise BadCursor("this cursor is not one of a tag search")
    count, tag_id = cursor[1:].split(".")
    return TagKey(int(count), int(tag_id))
