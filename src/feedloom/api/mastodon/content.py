"""A post's or bio's text as Mastodon's `content` HTML: escaped, links made of URLs,
paragraphs of blank-line-separated blocks, line breaks kept. Nothing of the text is
ever markup: every character outside a link is escaped.

Mentions and hashtags become links once their facets exist (issue 34): until then they
stay text.
"""

from __future__ import annotations

import html
import re

URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")


def html_of(text: str) -> str:
    blocks = [block for block in re.split(r"\n{2,}", text.strip()) if block]
    return "".join(f"<p>{_block(block)}</p>" for block in blocks)


def _block(block: str) -> str:
    out, at = [], 0
    for match in URL.finditer(block):
        out.append(html.escape(block[at : match.start()]))
        url = html.escape(match.group(0))
        out.append(f'<a href="{url}" rel="nofollow noopener noreferrer" target="_blank">{url}</a>')
        at = match.end()
    out.append(html.escape(block[at:]))
    return "".join(out).replace("\n", "<br>")
