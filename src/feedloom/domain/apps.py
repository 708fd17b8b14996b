"""Apps: another backend that drives feedloom for its own users (docs/INTEGRATION.md).

An app holds a server-side API key (shown once, stored as its SHA-256, prefixed
`fl_sk_` so a leaked one is recognisable in a log or a repository), a set of scopes,
and what it signs its users' tokens with. Its users carry the app's own IDs
(external IDs), unique per app. Pure values and rules: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from feedloom.domain.errors import Forbidden, InvalidInput

API_KEY_PREFIX = "fl_sk_"
MAX_EXTERNAL_ID = 128
# Printable ASCII but space and "/": an external ID is a path segment of /v1/apps/users/….
EXTERNAL_ID_PATTERN = r"^[!-.0-~]{1,128}$"
_EXTERNAL_ID = re.compile(EXTERNAL_ID_PATTERN)
APP_NAME = re.compile(r"^[ -~]{1,64}$")
# HS256 with the app's token secret, or the app's own key pair (public keys in a JWKS).
TOKEN_ALGORITHMS = ("HS256", "EdDSA", "RS256")


class Scope(StrEnum):
    USERS_WRITE = "users:write"
    GRAPH_WRITE = "graph:write"
    POSTS_WRITE = "posts:write"
    FEEDS_READ = "feeds:read"
    WEBHOOKS_MANAGE = "webhooks:manage"
    ADMIN = "admin"  # every other scope


def parse_scopes(text: str) -> frozenset[Scope]:
    """ "users:write,graph:write" (commas or spaces) -> the scopes; unknown ones refused."""
    names = [name for name in re.split(r"[,\s]+", text.strip()) if name]
    known = {scope.value for scope in Scope}
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise InvalidInput(
            f"unknown scope {', '.join(unknown)}"
            if unknown
            else f"give at least one scope (known: {', '.join(sorted(known))})"
        )
    return frozenset(Scope(name) for name in names)


def scopes_text(scopes: frozenset[Scope]) -> str:
    return ",".join(sorted(scope.value for scope in scopes))


def check_external_id(external_id: str) -> str:
    if not _EXTERNAL_ID.match(external_id):
        raise InvalidInput(
            f"an external ID is 1-{MAX_EXTERNAL_ID} printable ASCII characters, "
            "no space and no slash"
        )
    return external_id


def check_app_name(name: str) -> str:
    if not APP_NAME.match(name):
        raise InvalidInput("an app's name is 1-64 printable ASCII characters")
    return name


def check_algorithms(algorithms: tuple[str, ...]) -> tuple[str, ...]:
    """Pinned per app: one family only, so an HS256 token can never be checked with a
    public key taken for a secret (the HS/RS confusion), and never `none`."""
    if not algorithms or any(alg not in TOKEN_ALGORITHMS for alg in algorithms):
        raise InvalidInput(f"token algorithms are among {', '.join(TOKEN_ALGORITHMS)}")
    if "HS256" in algorithms and len(algorithms) > 1:
        raise InvalidInput("HS256 cannot be mixed with a key pair's algorithm")
    return algorithms


def check_jwks_url(url: str | None) -> str | None:
    """Where an app serves its public keys; whether it may be called is checked at
    each fetch (the outbound client's SSRF rules)."""
    if url is not None and (len(url) > 512 or not url.startswith(("https://", "http://"))):
        raise InvalidInput("a JWKS URL is an http(s) URL of at most 512 characters")
    return url


@dataclass(frozen=True, slots=True)
class App:
    """What authenticates an app and its users' tokens."""

    app_id: int
    name: str
    scopes: frozenset[Scope]
    token_secret: str  # HS256 key of user tokens
    algorithms: tuple[str, ...]
    jwks: str | None  # the public keys (a JSON Web Key Set) of EdDSA/RS256 tokens
    jwks_url: str | None
    create_users: bool  # a valid token for an unknown external ID creates the user
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


@dataclass(frozen=True, slots=True)
class AppCaller:
    """An API key's app, as a request authenticated with it acts."""

    app_id: int
    scopes: frozenset[Scope]

    def require(self, scope: Scope) -> None:
        if scope not in self.scopes and Scope.ADMIN not in self.scopes:
            raise Forbidden(f"this API key lacks the scope {scope.value}")


def link_key(app_id: int, external_id: str) -> str:
    """The token cache's key of an (app, external ID) -> user link."""
    return f"applink:{app_id}:{external_id}"


def app_key(app_id: int) -> str:
    """The token cache's key of an app's verification state."""
    return f"app:{app_id}"
