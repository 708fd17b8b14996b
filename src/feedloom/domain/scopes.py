"""OAuth scopes as Mastodon names them: `read`, `write`, `follow`, `push` and their
granular forms (`read:statuses`, `write:favourites`…). Pure: a token's granted scopes
and the scope an endpoint needs, no I/O.

A top-level scope covers its granular forms (`read` covers `read:accounts`); the legacy
`follow` covers reading and changing follows, blocks and mutes, as Mastodon's does.
"""

from __future__ import annotations

TOP = ("read", "write", "follow", "push")
GRANULAR = {
    "read": (
        "accounts", "blocks", "bookmarks", "favourites", "filters", "follows",
        "lists", "mutes", "notifications", "search", "statuses",
    ),
    "write": (
        "accounts", "blocks", "bookmarks", "conversations", "favourites", "filters",
        "follows", "lists", "media", "mutes", "notifications", "reports", "statuses",
    ),
}  # fmt: skip
FOLLOW_COVERS = frozenset(
    f"{kind}:{what}" for kind in ("read", "write") for what in ("blocks", "follows", "mutes")
)
KNOWN = frozenset(TOP) | frozenset(f"{k}:{w}" for k, ws in GRANULAR.items() for w in ws)
DEFAULT = "read"  # what an app or a request that names none gets, as Mastodon does


def parse_scopes(text: str | None) -> tuple[str, ...]:
    """Space-separated scopes, in order, each once; unknown ones raise ValueError."""
    names = tuple(dict.fromkeys((text or DEFAULT).split())) or (DEFAULT,)
    unknown = [name for name in names if name not in KNOWN]
    if unknown:
        raise ValueError(f"unknown scope {unknown[0]!r}")
    return names


def covers(granted: frozenset[str], needed: str) -> bool:
    """Whether scopes `granted` allow what needs `needed` (say, `write:statuses`)."""
    if needed in granted:
        return True
    top, _, _ = needed.partition(":")
    if top in granted:
        return True
    return "follow" in granted and needed in FOLLOW_COVERS


def within(requested: tuple[str, ...], allowed: tuple[str, ...]) -> bool:
    """Whether every requested scope is one the app registered (or is covered by one)."""
    registered = frozenset(allowed)
    return all(covers(registered, scope) for scope in requested)
