"""The request patterns mean the same to the server (Python `re`) and to a JSON Schema
validator (ECMA-262, as schemathesis and clients read the OpenAPI document), and say
exactly what the server's checks say."""

from __future__ import annotations

import re

import jsonschema_rs
from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.ids import ID_PATTERN, MAX_ID
from feedloom.domain.patterns import decimal_up_to, text, whole

TEXTS = st.text(st.characters(codec="utf-8"), max_size=6) | st.sampled_from(
    ["", " ", "\u0000", "a\u0000", "\u001c", "\u0085x", "\ufeff", "\u3000\t", "x"]
)


def ecma(pattern: str, value: str) -> bool:
    return jsonschema_rs.validator_for({"type": "string", "pattern": pattern}).is_valid(value)


@given(st.integers(1, 10**20), st.integers(-5, 10**21))
def test_decimal_up_to_admits_exactly_one_to_the_limit(limit: int, number: int) -> None:
    pattern = whole(decimal_up_to(limit))
    assert bool(re.fullmatch(pattern, str(number))) == (1 <= number <= limit)
    assert not re.fullmatch(pattern, f"0{number}")


@given(st.integers(-5, 2**64) | st.sampled_from([MAX_ID, MAX_ID + 1]))
def test_an_id_is_what_both_dialects_admit_and_nothing_else(number: int) -> None:
    valid = 1 <= number <= MAX_ID
    assert ecma(ID_PATTERN, str(number)) == valid
    assert bool(re.fullmatch(ID_PATTERN, str(number))) == valid
    assert not ecma(ID_PATTERN, f"{number}\n")


@given(TEXTS)
def test_a_text_without_nul_and_a_shown_text_mean_the_same_in_both_dialects(value: str) -> None:
    for min_shown, expected in (
        (False, "\u0000" not in value),
        (True, "\u0000" not in value and bool(value.strip())),
    ):
        pattern = text(min_shown)
        assert ecma(pattern, value) == expected, (pattern, value)
        assert bool(re.fullmatch(pattern, value)) == expected
