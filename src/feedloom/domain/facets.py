"""Facets: the mentions, hashtags and links of a post's text, found once at write time.

Clients render a post from its text and its facets, never by parsing it again
(Bluesky's model). Offsets are Unicode code points (Python string indexes), `end`
exclusive, so `text[start:end]` is what a facet covers.

The grammar (docs/CLIENT_API.md, "Facets"):
- a link is `http://` or `https://` and every character up to the next whitespace,
  less trailing punctuation (`.,:;!?'"*` and a closing bracket with no opening one
  inside the link); what remains must parse as an absolute URL with a host (yarl, the
  URL parser aiohttp uses). Nothing inside a link is a mention or a tag.
- a mention is `@` and a username (`[A-Za-z0-9_]`, 3-32 of them), not preceded by a
  word character (`a@b` is no mention) and not followed by one past 32 characters;
  it is resolved (case-insensitive) when the post is written, and stays plain text if
  no such account exists or it blocks the author.
- a tag is `#` and a run of letters, marks, digits and `_` in any script (Unicode
  categories L*, M*, Nd), not all digits, at most 100 characters, not preceded by a
  word character; its name is the run NFKC-normalised and casefolded, so `#Café`,
  `#CAFÉ` and `#café` are one tag.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from yarl import URL

from feedloom.domain.errors import NotFound

FacetKind = Literal["mention", "tag", "link"]
USERNAME = re.compile(r"[A-Za-z0-9_]{3,32}")
TAG_MAX_CHARS = 100
_LINK = re.compile(r"https?://\S+", re.IGNORECASE)
_TRAILING = ".,:;!?'\"*"
_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}
_TAG_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd"})


@dataclass(frozen=True, slots=True)
class Facet:
    """One facet. `value` is the link's URL, the tag's name, or the username as
    written; a resolved mention adds the account's `user_id` and `username`."""

    kind: FacetKind
    start: int
    end: int
    value: str
    user_id: int | None = None


def is_word(char: str) -> bool:
    """A character that may be part of a tag or a username (and so never stands right
    before a marker): `_` and Unicode letters, marks and decimal digits."""
    return char == "_" or unicodedata.category(char) in _TAG_CATEGORIES


def normalize_tag(raw: str) -> str | None:
    """A tag's name, or None when `raw` (without `#`) is no tag."""
    if not raw or len(raw) > TAG_MAX_CHARS or raw.isdigit():
        return None
    if not all(is_word(char) for char in raw):
        return None
    name = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", raw).casefold())
    if not name or name.isdigit() or len(name) > TAG_MAX_CHARS:
        return None
    return name if all(is_word(char) for char in name) else None


def tag_name(raw: str) -> str:
    """The tag a URL path names (its name, no `#`); NotFound for what can be
    no tag, as for a path ID that can be no ID."""
    name = normalize_tag(raw)
    if name is None:
        raise NotFound(f"{raw!r} is not a tag")
    return name


def parse_facets(text: str) -> list[Facet]:
    """Every link, mention and tag of `text`, by start, never overlapping. Mentions
    are unresolved here (`user_id` None): see `resolve_mentions`."""
    links = list(_links(text))
    taken = [False] * len(text)
    for link in links:
        taken[link.start : link.end] = [True] * (link.end - link.start)
    found = links + [facet for facet in _marked(text) if not any(taken[facet.start : facet.end])]
    return sorted(found, key=lambda facet: facet.start)


def resolve_mentions(facets: list[Facet], accounts: dict[str, tuple[int, str]]) -> list[Facet]:
    """Mentions of known accounts resolved (`accounts`: lowercased name -> (ID, the
    account's own spelling)); the others dropped, so they stay plain text."""
    resolved = []
    for facet in facets:
        if facet.kind != "mention":
            resolved.append(facet)
            continue
        account = accounts.get(facet.value.lower())
        if account is not None:
            user_id, username = account
            resolved.append(Facet("mention", facet.start, facet.end, username, user_id))
    return resolved


def mentioned_names(facets: list[Facet]) -> list[str]:
    """Lowercased usernames the facets mention, once each."""
    return list(dict.fromkeys(f.value.lower() for f in facets if f.kind == "mention"))


def facets_json(facets: Sequence[Facet]) -> list[dict[str, object]]:
    """How facets are stored (a post row's `facets`) and cached: compact and stable."""
    stored: list[dict[str, object]] = []
    for f in facets:
        item: dict[str, object] = {"k": f.kind, "s": f.start, "e": f.end, "v": f.value}
        if f.user_id is not None:
            item["u"] = f.user_id
        stored.append(item)
    return stored


def facets_from_json(items: Sequence[dict[str, Any]] | None) -> tuple[Facet, ...]:
    return tuple(Facet(i["k"], i["s"], i["e"], i["v"], i.get("u")) for i in items or ())


def _links(text: str) -> list[Facet]:
    links = []
    for match in _LINK.finditer(text):
        start, candidate = match.start(), _trimmed(match.group())
        if start > 0 and is_word(text[start - 1]):
            continue
        if _is_web_url(candidate):
            links.append(Facet("link", start, start + len(candidate), candidate))
    return links


def _trimmed(candidate: str) -> str:
    """A link less the punctuation that more likely ends the sentence around it."""
    while candidate:
        last = candidate[-1]
        if last in _TRAILING or (
            last in _PAIRS and candidate.count(last) > candidate.count(_PAIRS[last])
        ):
            candidate = candidate[:-1]
        else:
            break
    return candidate


def _is_web_url(candidate: str) -> bool:
    try:
        url = URL(candidate)
        host = url.host
    except (ValueError, UnicodeError):
        return False
    return url.scheme in ("http", "https") and bool(host) and url.is_absolute()


def _marked(text: str) -> list[Facet]:
    """Mentions and tags: a marker (`@`, `#`) at a word boundary and what follows it."""
    found = []
    for index, char in enumerate(text):
        if char not in "@#" or (
            index > 0 and (is_word(text[index - 1]) or text[index - 1] in "@#")
        ):
            continue
        end = index + 1
        while end < len(text) and is_word(text[end]):
            end += 1
        run = text[index + 1 : end]
        if char == "@":
            if USERNAME.fullmatch(run):
                found.append(Facet("mention", index, end, run))
        else:
            name = normalize_tag(run)
            if name is not None:
                found.append(Facet("tag", index, end, name))
    return found
