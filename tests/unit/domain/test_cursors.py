from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.cursors import (
    KeysetCursor,
    SessionCursor,
    decode_cursor,
    encode_cursor,
)
from feedloom.domain.errors import BadCursor


@given(st.integers(1, 2**63 - 1))
def test_a_keyset_cursor_round_trips(before: int) -> None:
    assert decode_cursor(encode_cursor(KeysetCursor(before))) == KeysetCursor(before)


def test_a_session_cursor_round_trips() -> None:
    cursor = SessionCursor(session="f9a2-x_1", offset=40)
    assert decode_cursor(encode_cursor(cursor)) == cursor


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "!!!",
        "x" * 600,
        _b64(b"not json"),
        _b64(b"[1,2]"),
        _b64(b'{"b": 5}'),
        _b64(b'{"b": "5", "extra": 1}'),
        _b64(b'{"s": "", "o": 1}'),
        _b64(b'{"s": "abc", "o": -1}'),
        _b64(b'{"s": "abc", "o": true}'),
        _b64(b"\xff\xfe"),
    ],
)
def test_anything_we_did_not_issue_is_a_bad_cursor(text: str) -> None:
    with pytest.raises(BadCursor):
        decode_cursor(text)
