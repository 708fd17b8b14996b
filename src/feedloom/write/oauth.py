"""OAuth 2 for the Mastodon-compatible API (docs/MASTODON_API.md): register an app,
authorize (the sign-in form, then a code), exchange a code or the app's credentials for
a token, revoke one.

A token of the code grant is a feedloom session (write/sessions.py): hashed, listed in
GET /v1/sessions under its app's name, revocable, expiring when idle, limited to the
scopes granted. A `client_credentials` token acts for the app alone. Sign-in on the form
is the same check, under the same limits, as POST /v1/sessions
(AccountService.check_sign_in). The grant and PKCE checks are Authlib's
(write/oauth_grants.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from authlib.oauth2.rfc6749 import OAuth2Error
from authlib.oauth2.rfc6749.util import extract_basic_authorization

from feedloom.domain.errors import InvalidInput, Unauthorized
from feedloom.domain.ids import IdGenerator
from feedloom.domain.scopes import parse_scopes
from feedloom.ports import Clock, RecordCache, TokenStore
from feedloom.ports.oauth import AuthorizationCode, OAuthApp, OAuthStore
from feedloom.write.accounts import AccountService, token_digest
from feedloom.write.oauth_grants import OOB, GrantServer, Request, digest

CODE_TTL = timedelta(minutes=10)
MAX_NAME, MAX_URI, MAX_URIS = 200, 2000, 10
Pairs = list[tuple[str, str]]
WRONG_CLIENT = "unknown client or wrong secret"


@dataclass(frozen=True, slots=True)
class Refused:
    """An OAuth error (RFC 6749 §4.1.2.1, §5.2): redirected to the client when its
    redirect URI is known good, else shown to the person."""

    status: int
    error: str
    description: str
    redirect_to: str | None = None  # the client's URI with error and state added


@dataclass(frozen=True, slots=True)
class Consent:
    app: OAuthApp
    redirect_uri: str
    scopes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Granted:
    redirect_to: str | None  # None for the out-of-band URI: the code is shown
    code: str


@dataclass(frozen=True, slots=True)
class TokenAnswer:
    status: int
    body: dict[str, Any]


class OAuth:
    def __init__(
        self,
        store: OAuthStore,
        tokens: TokenStore,
        token_cache: RecordCache,
        accounts: AccountService,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._store, self._tokens, self._token_cache = store, tokens, token_cache
        self._accounts, self._ids, self._clock = accounts, ids, clock

    async def register(
        self, name: str, redirect_uris: str, scopes: str | None, website: str | None
    ) -> tuple[OAuthApp, str]:
        """POST /api/v1/apps: the app, and its client secret (shown this once)."""
        if not name.strip() or len(name) > MAX_NAME:
            raise InvalidInput(f"client_name must be 1-{MAX_NAME} characters")
        uris = tuple(dict.fromkeys(redirect_uris.split()))
        if not uris or len(uris) > MAX_URIS or not all(map(_redirect_uri, uris)):
            raise InvalidInput(
                "redirect_uris must be absolute URIs (or urn:ietf:wg:oauth:2.0:oob), "
                f"at most {MAX_URIS}, separated by spaces or newlines"
            )
        try:
            granted = parse_scopes(scopes)
        except ValueError as error:
            raise InvalidInput(f"scopes: {error}") from error
        secret = secrets.token_urlsafe(32)
        app = OAuthApp(
            self._ids.next_id(),
            secrets.token_urlsafe(32),
            digest(secret),
            name.strip(),
            website or None,
            uris,
            granted,
            self._clock(),
        )
        await self._store.create_app(app)
        return app, secret

    async def consent(self, query: Pairs) -> Consent | Refused:
        """GET /oauth/authorize: what the sign-in form asks the person to grant."""
        server = GrantServer(await self._app_of(query), self._clock(), None)
        try:
            grant = server.get_consent_grant(Request("GET", query, {}))
        except OAuth2Error as error:
            return _refused(error)
        client = grant.client
        return Consent(client.app, grant.redirect_uri, tuple(grant.request.scope.split()))

    async def authorize(
        self, form: Pairs, username: str, password: str, address: str, approve: bool
    ) -> Granted | Refused:
        """POST /oauth/authorize: sign in and grant (or deny): a code for the client."""
        user_id = None
        if approve:
            user_id = await self._accounts.check_sign_in(username, password, address)
        server = GrantServer(await self._app_of(form), self._clock(), None)
        request = Request("GET", form, {})
        try:
            grant = server.get_consent_grant(request, end_user=user_id)
        except OAuth2Error as error:
            return _refused(error)
        status, _, headers = server.create_authorization_response(request, user_id, grant)
        location = dict(headers).get("Location", "")
        if status >= 400 or server.issued.code is None:
            return Refused(status, "access_denied", "the request was denied", location or None)
        await self._store.save_code(
            AuthorizationCode(
                digest(server.issued.code),
                grant.client.app.id,
                user_id or 0,
                grant.redirect_uri,
                grant.request.scope,
                request.payload.data.get("code_challenge"),
                request.payload.data.get("code_challenge_method"),
                self._clock() + CODE_TTL,
            )
        )
        if user_id is not None:
            await self._accounts.remember_client(user_id, address)
        redirect = None if grant.redirect_uri == OOB else location
        return Granted(redirect, server.issued.code)

    async def token(self, form: Pairs, headers: dict[str, str]) -> TokenAnswer:
        """POST /oauth/token: `authorization_code` (PKCE for a public client) or
        `client_credentials`."""
        now = self._clock()
        data = dict(form)
        taken = None
        if data.get("grant_type") == "authorization_code" and data.get("code"):
            taken = await self._store.take_code(digest(data["code"]), now)
        app = await self._app_of(form, headers)
        server = GrantServer(app, now, taken)
        status, body, _ = server.create_token_response(Request("POST", form, headers))
        issued = server.issued
        if status == 200 and issued.token is not None and issued.client is not None:
            token = issued.token
            app_id = issued.client.app.id
            if issued.user_id is not None:
                await self._tokens.create_token(
                    token_digest(token["access_token"]), issued.user_id, now, app_id, token["scope"]
                )
            else:
                await self._store.create_app_token(
                    token_digest(token["access_token"]), app_id, token["scope"], now
                )
        return TokenAnswer(status, dict(body))

    async def revoke(self, form: Pairs, headers: dict[str, str]) -> TokenAnswer:
        """POST /oauth/revoke (RFC 7009): the app's credentials and a token of its; 200
        whether or not the token was valid, as the RFC asks."""
        app = await self._app_of(form, headers)
        data = dict(form)
        client_id, secret = extract_basic_authorization(headers)
        client_id = client_id or data.get("client_id")
        secret = secret or data.get("client_secret", "")
        if app is None or app.client_id != client_id or digest(secret) != app.secret_hash:
            return TokenAnswer(401, {"error": "invalid_client", "error_description": WRONG_CLIENT})
        hashed = token_digest(data.get("token", ""))
        session = await self._tokens.session_for_token(hashed)
        if session is not None and session.app_id == app.id:
            await self._tokens.revoke_token(hashed)
            await self._token_cache.invalidate([hashed])
        else:
            found = await self._store.app_token(hashed)
            if found is not None and found[0].id == app.id:
                await self._store.revoke_app_token(hashed)
        return TokenAnswer(200, {})

    async def app_of_token(self, token: str) -> tuple[OAuthApp, frozenset[str]]:
        """The app a token acts for (GET /api/v1/apps/verify_credentials): an app-only
        token's, or a session's opened through OAuth."""
        hashed = token_digest(token)
        found = await self._store.app_token(hashed)
        if found is not None:
            return found[0], frozenset(found[1].split())
        session = await self._tokens.session_for_token(hashed)
        if session is not None and session.app_id is not None:
            app = await self._store.app_by_id(session.app_id)
            if app is not None:
                return app, frozenset((session.scopes or "").split())
        raise Unauthorized("the access token is invalid")

    async def app_scopes(self, token: str) -> frozenset[str] | None:
        """An app-only token's scopes; None if it is not one."""
        found = await self._store.app_token(token_digest(token))
        return frozenset(found[1].split()) if found is not None else None

    async def _app_of(self, pairs: Pairs, headers: dict[str, str] | None = None) -> OAuthApp | None:
        client_id = dict(pairs).get("client_id")
        if client_id is None and headers is not None:
            client_id, _ = extract_basic_authorization(headers)
        if not client_id or len(client_id) > 64:
            return None
        return await self._store.app(client_id)


def _redirect_uri(uri: str) -> bool:
    if uri == OOB:
        return True
    parts = urlsplit(uri)
    return (
        len(uri) <= MAX_URI
        and bool(parts.scheme)
        and not parts.fragment
        and (bool(parts.netloc) or parts.scheme not in ("http", "https"))
    )


def _refused(error: OAuth2Error) -> Refused:
    status, body, headers = error(None)
    location = dict(headers).get("Location")
    body = dict(body) if isinstance(body, dict) else {}
    return Refused(
        status,
        body.get("error", error.error),
        body.get("error_description", error.description or error.error),
        location,
    )
