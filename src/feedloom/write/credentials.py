"""The one bearer resolver: `Authorization: Bearer X` -> the user a request acts as.

Kinds of credential are tried in order, each recognising its own tokens by their form;
a session token (write/sessions.py) is the default. Another kind (an app's user token,
an OAuth token) plugs in here, so every /v1 route accepts every kind through the one
dependency in api/deps.py. An app's API key is no user: it is refused here, and
accepted only by the app endpoints (/v1/apps/…), through `AppKeys`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from feedloom.domain.apps import API_KEY_PREFIX
from feedloom.domain.errors import Unauthorized
from feedloom.write.sessions import CurrentSession


class CredentialKind(Protocol):
    def claims(self, token: str) -> bool:
        """Whether the token has this kind's form (no I/O)."""
        ...

    async def session(self, token: str) -> CurrentSession: ...


class ApiKeysAreNoUser:
    @staticmethod
    def claims(token: str) -> bool:
        return token.startswith(API_KEY_PREFIX)

    async def session(self, token: str) -> CurrentSession:
        raise Unauthorized(
            "an API key acts for its app on /v1/apps/…; a user's requests take a session "
            "or a user token the app signed"
        )


class SessionKind(Protocol):
    async def session(self, token: str) -> CurrentSession: ...


class Credentials:
    def __init__(self, kinds: Sequence[CredentialKind], default: SessionKind) -> None:
        self._kinds, self._default = list(kinds), default

    async def session(self, token: str) -> CurrentSession:
        for kind in self._kinds:
            if kind.claims(token):
                return await kind.session(token)
        return await self._default.session(token)
