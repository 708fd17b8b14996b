"""Regular expressions for what a client may send, shared by the server's checks and
the OpenAPI document: a value the document's pattern admits is one the server accepts,
and the other way round (tests/integration/test_schemathesis.py holds both to it).

They are written for both dialects that read them: Python's `re` (the server, and the
test generators) and ECMA-262 (JSON Schema `pattern`): no lookarounds, no possessive
or named groups, `\\u` escapes only.
"""

from __future__ import annotations

import re
import unicodedata

NO_NUL = r"[^\u0000]"


def _ranges(codes: list[int]) -> str:
    """A character class body for these code points, as `\\uXXXX` ranges."""
    spans: list[list[int]] = []
    for code in codes:
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    return "".join(
        f"\\u{low:04x}" + (f"-\\u{high:04x}" if high > low else "") for low, high in spans
    )


# What str.strip() removes, spelled out: `\\s` means other things to Python and ECMA.
WHITESPACE = _ranges([code for code in range(0x3001) if chr(code).isspace()])
# Some character that is neither whitespace nor NUL: what a stripped text keeps.
SHOWN = f"[^\\u0000{WHITESPACE}]"


def whole(pattern: str) -> str:
    """Anchored at both ends: JSON Schema's `pattern` matches anywhere otherwise."""
    return f"^(?:{pattern})$"


def decimal_up_to(limit: int) -> str:
    """Decimal numbers 1..limit, no sign, no leading zero (unanchored)."""
    digits = str(limit)
    shorter = f"[1-9][0-9]{{0,{len(digits) - 2}}}" if len(digits) > 1 else ""
    same_length = []
    for place, digit in enumerate(digits):
        low = "1" if place == 0 else "0"
        if int(digit) > int(low):
            top = int(digit) - 1
            below = low if top == int(low) else f"[{low}-{top}]"
            rest = len(digits) - place - 1
            same_length.append(digits[:place] + below + (f"[0-9]{{{rest}}}" if rest else ""))
    same_length.append(digits)
    return "|".join(filter(None, [shorter, *same_length]))


def text(min_shown: bool = False) -> str:
    """Any text without NUL (PostgreSQL cannot store it); with `min_shown`, one that
    is not blank once stripped (anchored)."""
    return whole(f"{NO_NUL}*{SHOWN}{NO_NUL}*" if min_shown else f"{NO_NUL}*")


def matches(pattern: str, value: str) -> bool:
    return re.fullmatch(pattern, value) is not None


# A character of a searchable word: a letter, digit or combining mark of any script in
# the Basic Multilingual Plane (ECMA-262 patterns without the `u` flag see no further).
WORD = _ranges(
    [
        code
        for code in range(0x10000)
        if not 0xD800 <= code < 0xE000 and unicodedata.category(chr(code))[0] in "LNM"
    ]
)
WORD_CHAR = re.compile(f"[{WORD}]")
# A search query: it must hold a word (domain/search.py).
SEARCH_QUERY = whole(f"{NO_NUL}*[{WORD}]{NO_NUL}*")

# A tag's name in a URL path, without `#` (domain/facets.py): no ASCII character but
# letters, digits and `_`, no whitespace or NUL, 1-100 characters. What else makes a
# tag (Unicode letters, marks and digits, not all digits) a JSON Schema pattern cannot
# say: a path it admits that is no tag names nothing (404), like an ID of nothing.
TAG_PATH_PATTERN = whole(
    f"[^\\u0000-\\u002f\\u003a-\\u0040\\u005b-\\u005e\\u0060\\u007b-\\u007f{WHITESPACE}]{{1,100}}"
)


# A generator's URI: http(s), an ASCII host (an IDN one in its xn-- form, no IPv6
# literal, no credentials), a port, then printable ASCII. Whether the host resolves to
# an address that may be called is known only by asking, at registration.
GENERATOR_URI_PATTERN = whole(r"https?://[A-Za-z0-9._~-]+(?::[0-9]{1,5})?(?:[/?#][!-~]*)?")
