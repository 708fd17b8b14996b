"""Authlib's OAuth 2 server, fitted to async stores: the grant and PKCE checks are its
(rfc6749 authorization-code and client-credentials grants, rfc7636 S256 challenge).

Authlib calls its hooks (`query_client`, `query_authorization_code`, `save_token`…)
synchronously, and our stores are async. So one `GrantServer` is built per request with
what its hooks will ask for already loaded (the app named by `client_id`, the code
taken), and it records what Authlib produced (a code to save, a token to store) for the
caller to write afterwards (write/oauth.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from authlib.oauth2.rfc6749 import (
    AuthorizationCodeMixin,
    AuthorizationServer,
    ClientMixin,
    OAuth2Request,
)
from authlib.oauth2.rfc6749.errors import InvalidScopeError
from authlib.oauth2.rfc6749.grants import AuthorizationCodeGrant, ClientCredentialsGrant
from authlib.oauth2.rfc6749.requests import OAuth2Payload
from authlib.oauth2.rfc7636 import CodeChallenge

from feedloom.domain.scopes import KNOWN, parse_scopes, within
from feedloom.ports.oauth import AuthorizationCode, OAuthApp

OOB = "urn:ietf:wg:oauth:2.0:oob"  # the code is shown to the person, not redirected
# Authlib refuses a request whose URI is plain http; TLS is the deployment's (the proxy
# in front of the API), so the request handed to it names this URI instead.
_URI = "https://feedloom.invalid/oauth"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Client(ClientMixin):  # type: ignore[misc]
    def __init__(self, app: OAuthApp) -> None:
        self.app = app

    def get_client_id(self) -> str:
        return self.app.client_id

    def get_default_redirect_uri(self) -> str:
        return self.app.redirect_uris[0]

    def get_allowed_scope(self, scope: str | None) -> str | None:
        try:
            requested = parse_scopes(scope)
        except ValueError:
            return None
        return " ".join(requested) if within(requested, self.app.scopes) else None

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.app.redirect_uris  # an exact match, as Mastodon's

    def check_client_secret(self, client_secret: str) -> bool:
        return hmac.compare_digest(digest(client_secret), self.app.secret_hash)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return True  # each grant names the methods it takes (a public client: PKCE)

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in ("authorization_code", "client_credentials")


class Code(AuthorizationCodeMixin):  # type: ignore[misc]
    def __init__(self, stored: AuthorizationCode) -> None:
        self.stored = stored
        self.code_challenge = stored.challenge
        self.code_challenge_method = stored.challenge_method

    def get_redirect_uri(self) -> str:
        return self.stored.redirect_uri

    def get_scope(self) -> str:
        return self.stored.scopes


class Payload(OAuth2Payload):  # type: ignore[misc]
    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self._datalist: dict[str, list[str]] = {}
        for key, value in pairs:
            self._datalist.setdefault(key, []).append(value)
        self._data = {key: values[0] for key, values in self._datalist.items()}

    @property
    def data(self) -> dict[str, str]:
        return self._data

    @property
    def datalist(self) -> dict[str, list[str]]:
        return self._datalist


class Request(OAuth2Request):  # type: ignore[misc]
    """A query string's or form's pairs, and the headers (Basic client authentication)."""

    def __init__(self, method: str, pairs: list[tuple[str, str]], headers: dict[str, str]):
        super().__init__(method, _URI, headers=headers)
        self.payload = Payload(pairs)

    @property
    def form(self) -> dict[str, str]:
        data: dict[str, str] = self.payload.data
        return data

    @property
    def args(self) -> dict[str, str]:
        return self.form


class S256(CodeChallenge):  # type: ignore[misc]
    """PKCE: S256 only (`plain` shows the verifier to whoever sees the challenge);
    required of a public client, one that sends no client secret."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]  # noqa: RUF012 (Authlib's name)


class CodeGrant(AuthorizationCodeGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]  # noqa: RUF012

    def save_authorization_code(self, code: str, request: Request) -> None:
        self.server.issued.code = code

    def query_authorization_code(self, code: str, client: Client) -> Code | None:
        taken: AuthorizationCode | None = self.server.taken
        if taken is None or taken.code_hash != digest(code) or taken.app_id != client.app.id:
            return None
        return Code(taken)

    def delete_authorization_code(self, authorization_code: Code) -> None:
        pass  # taken from the store before Authlib ran: a code is used once

    def authenticate_user(self, authorization_code: Code) -> int:
        return authorization_code.stored.user_id


class AppGrant(ClientCredentialsGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]  # noqa: RUF012


@dataclass
class Issued:
    code: str | None = None
    token: dict[str, Any] | None = None
    user_id: int | None = None
    client: Client | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class GrantServer(AuthorizationServer):  # type: ignore[misc]
    def __init__(self, app: OAuthApp | None, now: datetime, taken: AuthorizationCode | None):
        super().__init__(scopes_supported=sorted(KNOWN))
        self.app, self.now, self.taken = app, now, taken
        self.issued = Issued()
        self.register_grant(CodeGrant, [S256(required=True)])
        self.register_grant(AppGrant)
        self.register_token_generator("default", self._token)

    def query_client(self, client_id: str) -> Client | None:
        if self.app is None or not hmac.compare_digest(self.app.client_id, client_id):
            return None
        return Client(self.app)

    def save_token(self, token: dict[str, Any], request: Request) -> None:
        self.issued.token = token
        self.issued.user_id = request.user
        self.issued.client = request.client

    def create_oauth2_request(self, request: Request) -> Request:
        return request

    def handle_response(
        self, status: int, body: Any, headers: list[tuple[str, str]]
    ) -> tuple[int, Any, list[tuple[str, str]]]:
        return status, body, headers

    def validate_requested_scope(self, scope: str | None) -> None:
        try:
            parse_scopes(scope)
        except ValueError as error:
            raise InvalidScopeError(description=str(error)) from error

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        pass

    def _token(
        self,
        grant_type: str,
        client: Client,
        user: int | None = None,
        scope: str | None = None,
        expires_in: int | None = None,
        include_refresh_token: bool = True,
    ) -> dict[str, Any]:
        # No expiry and no refresh token: a session expires when idle (write/sessions.py),
        # as Mastodon's tokens do not expire at all.
        return {
            "access_token": secrets.token_urlsafe(32),
            "token_type": "Bearer",
            "scope": scope or "read",
            "created_at": int(self.now.timestamp()),
        }
