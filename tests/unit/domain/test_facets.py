"""The facet grammar (domain/facets.py): examples, then properties over any text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.facets import Facet, normalize_tag, parse_facets, resolve_mentions


def _found(text: str) -> list[tuple[str, str, str]]:
    return [(f.kind, f.value, text[f.start : f.end]) for f in parse_facets(text)]


def test_offsets_count_code_points_so_emoji_and_bengali_do_not_shift_them() -> None:
    text = "🎉🎉 @kim মজা #রাজশাহী 👍🏽 https://example.com/ক"
    facets = parse_facets(text)
    assert [(f.kind, text[f.start : f.end]) for f in facets] == [
        ("mention", "@kim"),
        ("tag", "#রাজশাহী"),
        ("link", "https://example.com/ক"),
    ]
    assert facets[0].start == 3  # two emoji are two code points, not four UTF-16 units


def test_tags_are_normalised_with_nfkc_and_casefold() -> None:
    assert normalize_tag("Café") == normalize_tag("café") == normalize_tag("CAFÉ") == "café"
    assert normalize_tag("Cafe\u0301") == "café"  # a combining accent composes
    assert normalize_tag("\uff26\uff45\uff45\uff44") == "feed"  # full-width letters
    assert normalize_tag("Straße") == "strasse"
    assert normalize_tag("রাজশাহী") == "রাজশাহী"  # vowel signs are marks, inside the tag


def test_what_is_not_a_tag() -> None:
    assert normalize_tag("2026") is None
    assert normalize_tag("") is None
    assert normalize_tag("a-b") is None
    assert normalize_tag("x" * 101) is None
    assert _found("#1 a#b ##c") == []


def test_mentions_need_a_boundary_and_a_username_shape() -> None:
    assert _found("mail a@b.com @ab @kim_2 @kim's (@Ann)") == [
        ("mention", "kim_2", "@kim_2"),
        ("mention", "kim", "@kim"),
        ("mention", "Ann", "@Ann"),
    ]
    assert _found("@kimé") == []  # the name does not end at a boundary


def test_links_leave_trailing_punctuation_and_hold_what_is_inside() -> None:
    assert _found("see https://example.com/a_(b)). or (http://x.org/y)!") == [
        ("link", "https://example.com/a_(b)", "https://example.com/a_(b)"),
        ("link", "http://x.org/y", "http://x.org/y"),
    ]
    assert _found("https://ex.com/#tag?@kim ftp://x.org javascript:alert(1)") == [
        ("link", "https://ex.com/#tag?@kim", "https://ex.com/#tag?@kim")
    ]
    assert _found("https:// http://") == []


def test_unknown_mentions_are_dropped_known_ones_carry_id_and_spelling() -> None:
    facets = parse_facets("@KIM @nobody #x")
    resolved = resolve_mentions(facets, {"kim": (7, "Kim")})
    assert resolved == [Facet("mention", 0, 4, "Kim", 7), facets[2]]


PIECES = st.sampled_from(
    [
        "@kim",
        "@",
        "#",
        "#Café",
        "#রাজশাহী",
        "https://",
        "http://ex.com/a",
        ".",
        ")",
        "(",
        " ",
        "_",
        "🎉",
        "👍🏽",
        "\u0301",
        "a",
        "\uff21",
        "1",
        "\n",
        "@@",
        "##",
    ]
)
TEXTS = st.one_of(st.text(max_size=80), st.lists(PIECES, max_size=30).map("".join))


@given(TEXTS)
def test_every_facet_lies_inside_the_text_in_order_without_overlap(text: str) -> None:
    end = 0
    for facet in parse_facets(text):
        assert end <= facet.start < facet.end <= len(text)
        end = facet.end


@given(TEXTS)
def test_each_facet_is_what_its_text_says(text: str) -> None:
    for facet in parse_facets(text):
        covered = text[facet.start : facet.end]
        if facet.kind == "link":
            assert covered == facet.value
        elif facet.kind == "mention":
            assert covered == "@" + facet.value
        else:
            assert covered[0] == "#" and normalize_tag(covered[1:]) == facet.value


@given(TEXTS, TEXTS)
def test_facets_survive_text_around_them(before: str, after: str) -> None:
    """Round trip: cut the text at its facets and put it together again; the pieces
    are the text, and a facet's text parsed alone is the same facet."""
    text = before + " " + after
    facets = parse_facets(text)
    pieces, at = [], 0
    for facet in facets:
        pieces += [text[at : facet.start], text[facet.start : facet.end]]
        at = facet.end
        alone = parse_facets(text[facet.start : facet.end])
        assert [(f.kind, f.value) for f in alone] == [(facet.kind, facet.value)]
    assert "".join(pieces) + text[at:] == text
