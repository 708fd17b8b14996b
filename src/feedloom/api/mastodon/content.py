"""A post's text as Mastodon's `content` HTML, made from its facets (domain/facets.py,
found once when the post was written): links, mentions and hashtags become links to
their target (a mention to the account's page, a tag to its timeline), everything else
is escaped text; blank-line-separated blocks are paragraphs, line breaks are kept.
Nothing of the text is ever markup."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from feedloom.domain.facets import Facet

PARAGRAPH = "\n\n"


def account_url(base: str, username: str) -> str:
    return f"{base}/#/u/{username}"


def tag_url(base: str, name: str) -> str:
    return f"{base}/tags/{name}"


def html_of(text: str, facets: Sequence[Facet] = (), base: str = "") -> str:
    out, at = [], 0
    for facet in sorted(facets, key=lambda f: f.start):
        if facet.start < at:
            continue  # overlapping facets are not written by the parser; be safe anyway
        out.append(_text(text[at : facet.start]))
        out.append(_link(facet, text[facet.start : facet.end], base))
        at = facet.end
    out.append(_text(text[at:]))
    body = "".join(out).strip()
    blocks = [block for block in re.split(r"(?:<br>){2,}", body) if block]
    return "".join(f"<p>{block}</p>" for block in blocks)


def _text(part: str) -> str:
    return html.escape(part).replace("\n", "<br>")


def _link(facet: Facet, shown: str, base: str) -> str:
    if facet.kind == "link":
        url = html.escape(facet.value)
        return f'<a href="{url}" rel="nofollow noopener noreferrer" target="_blank">{html.escape(shown)}</a>'  # noqa: E501
    if facet.kind == "tag":
        url = html.escape(tag_url(base, facet.value))
        name = html.escape(shown.removeprefix("#"))
        return f'<a href="{url}" class="mention hashtag" rel="tag">#<span>{name}</span></a>'
    if facet.user_id is None:
        return _text(shown)
    url = html.escape(account_url(base, facet.value))
    name = html.escape(shown.removeprefix("@"))
    return f'<span class="h-card"><a href="{url}" class="u-url mention">@<span>{name}</span></a></span>'  # noqa: E501
