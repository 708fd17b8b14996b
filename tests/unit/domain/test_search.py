"""A search's words and cursors: the pattern the OpenAPI document states is the check."""

from __future__ import annotations

import re

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedloom.domain.errors import BadCursor, InvalidInput
from feedloom.domain.patterns import SEARCH_QUERY
from feedloom.domain.search import (
    ANY_SEARCH_CURSOR_PATTERN,
    MAX_QUERY,
    NEWEST_CURSOR_PATTERN,
    RELEVANCE_CURSOR_PATTERN,
    TAG_CURSOR_PATTERN,
    PostKey,
    SearchOrder,
    TagKey,
    decode_post_cursor,
    decode_tag_cursor,
    encode_post_cursor,
    encode_tag_cursor,
    search_words,
    tag_prefix,
)


def test_words_are_runs_of_letters_digits_and_marks_in_any_script() -> None:
    assert search_words("Alice  Wönder!") == ["alice", "wönder"]
    assert search_words("বাংলায় গান, ক্ষমা") == ["বাংলায়", "গান", "ক্ষমা"]
    assert search_words('"cafe" OR NEAR(x*) -y') == ["cafe", "or", "near", "x", "y"]
    assert search_words("a a A") == ["a"]


@pytest.mark.parametrize("query", ["", "   ", "!?* ()", "😀", "x" * (MAX_QUERY + 1)])
def test_a_query_without_a_word_or_too_long_is_refused(query: str) -> None:
    with pytest.raises(InvalidInput):
        search_words(query)


@settings(deadline=None)
@given(st.text(max_size=12) | st.sampled_from(["é", "\u0301", "ক্ষ", "_", "😀", "x😀", "٣"]))
def test_the_documented_pattern_admits_exactly_the_queries_with_a_word(query: str) -> None:
    admitted = re.fullmatch(SEARCH_QUERY, query) is not None
    schema = {"type": "string", "pattern": SEARCH_QUERY}
    assert jsonschema_rs.validator_for(schema).is_valid(query) == admitted  # ECMA-262 too
    try:
        search_words(query)
        accepted = True
    except InvalidInput:
        accepted = False
    assert admitted == accepted or "\x00" in query


def test_cursors_round_trip_and_name_their_order() -> None:
    key = PostKey(1234, 2**62)
    for order in SearchOrder:
        cursor = encode_post_cursor(order, key)
        assert re.fullmatch(ANY_SEARCH_CURSOR_PATTERN, cursor)
        decoded = decode_post_cursor(order, cursor)
        assert decoded is not None and decoded.post_id == key.post_id
    with pytest.raises(BadCursor):
        decode_post_cursor(SearchOrder.RELEVANCE, encode_post_cursor(SearchOrder.NEWEST, key))
    with pytest.raises(BadCursor):
        decode_post_cursor(SearchOrder.NEWEST, "r1.2")


@given(st.from_regex(NEWEST_CURSOR_PATTERN, fullmatch=True))
def test_every_newest_cursor_the_pattern_admits_is_one(text: str) -> None:
    assert decode_post_cursor(SearchOrder.NEWEST, text) is not None


@given(st.from_regex(RELEVANCE_CURSOR_PATTERN, fullmatch=True))
def test_every_relevance_cursor_the_pattern_admits_is_one(text: str) -> None:
    assert decode_post_cursor(SearchOrder.RELEVANCE, text) is not None


def test_a_tag_search_takes_the_first_word_as_a_normalised_tag() -> None:
    assert tag_prefix("#CAFÉ au lait") == "café"
    assert tag_prefix("১২৩") is None and tag_prefix("12") is None  # digits only: no tag
    key = TagKey(3, 2**40)
    assert decode_tag_cursor(encode_tag_cursor(key)) == key
    assert re.fullmatch(ANY_SEARCH_CURSOR_PATTERN, encode_tag_cursor(key))
    with pytest.raises(BadCursor):
        decode_tag_cursor("n12")


@given(st.from_regex(TAG_CURSOR_PATTERN, fullmatch=True))
def test_every_tag_cursor_the_pattern_admits_is_one(text: str) -> None:
    assert decode_tag_cursor(text) is not None
