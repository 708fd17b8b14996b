"""Apps and OAuth 2: POST /api/v1/apps, GET /api/v1/apps/verify_credentials,
GET|POST /oauth/authorize (the sign-in and consent page), POST /oauth/token,
POST /oauth/revoke, GET /.well-known/oauth-authorization-server. Each parses, calls
write/oauth.py, renders."""

from __future__ import annotations

import html
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from feedloom import __version__
from feedloom.api.deps import client_address, feedloom_of
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import token_of
from feedloom.api.mastodon.forms import Pairs, many, one, params_of
from feedloom.api.security_headers import HTML_CSP
from feedloom.domain.errors import RateLimited, Unauthorized
from feedloom.domain.scopes import KNOWN
from feedloom.write.oauth import OAuth, Refused
from feedloom.write.oauth_grants import OOB

apps = APIRouter(prefix="/v1/apps")  # under /api
oauth = APIRouter()  # under /oauth
well_known = APIRouter(include_in_schema=False)  # on the main app


async def _oauth(request: Request) -> OAuth:
    service: OAuth = feedloom_of(request).services.oauth
    return service


OAuthDep = Annotated[OAuth, Depends(_oauth)]
Params = Annotated[Pairs, Depends(params_of)]
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@apps.post("")
async def create_app(params: Params, service: OAuthDep) -> JSONResponse:
    uris = " ".join(many(params, "redirect_uris")) or OOB
    app, secret = await service.register(
        one(params, "client_name") or "", uris, one(params, "scopes"), one(params, "website")
    )
    body = {**entities.application(app), "client_id": app.client_id, "client_secret": secret}
    body["client_secret_expires_at"] = 0
    return JSONResponse(body)


@apps.get("/verify_credentials")
async def verify_app(request: Request, service: OAuthDep) -> JSONResponse:
    token = token_of(request)
    if token is None:
        raise Unauthorized("The access token is invalid")
    app, scopes = await service.app_of_token(token)
    body = entities.application(app, scopes)
    del body["redirect_uri"], body["redirect_uris"]
    return JSONResponse(body)


@oauth.get("/authorize")
async def authorize_page(request: Request, service: OAuthDep) -> Response:
    query = list(request.query_params.multi_items())
    consent = await service.consent(query)
    if isinstance(consent, Refused):
        return _refusal(consent)
    return _page(query, consent.app.name, consent.scopes, consent.redirect_uri)


@oauth.post("/authorize")
async def authorize(request: Request, service: OAuthDep) -> Response:
    form = await params_of(request)
    fields = [(k, v) for k, v in form if k not in ("username", "password", "decision")]
    approve = one(form, "decision") != "deny"
    try:
        granted = await service.authorize(
            fields,
            one(form, "username") or "",
            one(form, "password") or "",
            await client_address(request),
            approve,
        )
    except (Unauthorized, RateLimited) as error:
        consent = await service.consent(fields)
        if isinstance(consent, Refused):
            return _refusal(consent)
        status = 429 if isinstance(error, RateLimited) else 401
        page = _page(fields, consent.app.name, consent.scopes, consent.redirect_uri, error.detail)
        page.status_code = status
        return page
    if isinstance(granted, Refused):
        return _refusal(granted)
    if granted.redirect_to is None:  # out of band: the person copies the code
        body = f"<h1>Authorization code</h1><p>Copy this code into the app:</p><pre id=code>{html.escape(granted.code)}</pre>"  # noqa: E501
        return _html(body, 200)
    return RedirectResponse(granted.redirect_to, status_code=302, headers=NO_STORE)


@oauth.post("/token")
async def token(request: Request, service: OAuthDep) -> JSONResponse:
    answer = await service.token(await params_of(request), _auth_header(request))
    return JSONResponse(answer.body, status_code=answer.status, headers=NO_STORE)


@oauth.post("/revoke")
async def revoke(request: Request, service: OAuthDep) -> JSONResponse:
    answer = await service.revoke(await params_of(request), _auth_header(request))
    return JSONResponse(answer.body, status_code=answer.status, headers=NO_STORE)


@well_known.get("/.well-known/oauth-authorization-server")
async def server_metadata(request: Request) -> JSONResponse:
    base = base_url(request)
    return JSONResponse(
        {
            "issuer": f"{base}/",
            "service_documentation": f"{base}/docs",
            "authorization_endpoint": f"{base}/oauth/authorize",
            "token_endpoint": f"{base}/oauth/token",
            "revocation_endpoint": f"{base}/oauth/revoke",
            "app_registration_endpoint": f"{base}/api/v1/apps",
            "scopes_supported": sorted(KNOWN),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "client_credentials"],
            "token_endpoint_auth_methods_supported": [
                "client_secret_basic",
                "client_secret_post",
                "none",
            ],
            "code_challenge_methods_supported": ["S256"],
        }
    )


@well_known.get("/.well-known/nodeinfo")
async def nodeinfo_links(request: Request) -> JSONResponse:
    """NodeInfo discovery: what software this is, for clients that ask before signing in."""
    schema = "http://nodeinfo.diaspora.software/ns/schema/2.0"
    return JSONResponse({"links": [{"rel": schema, "href": f"{base_url(request)}/nodeinfo/2.0"}]})


@well_known.get("/nodeinfo/2.0")
async def nodeinfo() -> JSONResponse:
    return JSONResponse(
        {
            "version": "2.0",
            "software": {"name": "feedloom", "version": __version__},
            "protocols": [],  # no federation
            "services": {"inbound": [], "outbound": []},
            "openRegistrations": False,
            "usage": {"users": {}},
            "metadata": {"mastodon_api": True},
        }
    )


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def _auth_header(request: Request) -> dict[str, str]:
    header = request.headers.get("authorization")
    return {"Authorization": header} if header else {}


def _refusal(refused: Refused) -> Response:
    if refused.redirect_to is not None:
        return RedirectResponse(refused.redirect_to, status_code=302, headers=NO_STORE)
    body = f"<h1>This app cannot sign in</h1><p>{html.escape(refused.description)} ({html.escape(refused.error)})</p>"  # noqa: E501
    return _html(body, refused.status if refused.status >= 400 else 400)


def _page(
    fields: Pairs, app: str, scopes: tuple[str, ...], redirect_uri: str, problem: str = ""
) -> HTMLResponse:
    hidden = "".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields
    )
    wanted = "".join(f"<li>{html.escape(scope)}</li>" for scope in scopes)
    said = f'<p role="alert">{html.escape(problem)}</p>' if problem else ""
    body = f"""<h1>Sign in to feedloom</h1>
<p><strong>{html.escape(app)}</strong> asks to use your account with these scopes:</p>
<ul>{wanted}</ul>{said}
<form method="post" action="/oauth/authorize">{hidden}
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button name="decision" value="approve">Sign in and authorize</button>
<button name="decision" value="deny" formnovalidate>Deny</button>
</form>"""  # noqa: E501
    return _html(body, 200, redirect_uri)


def _html(body: str, status: int, redirect_uri: str | None = None) -> HTMLResponse:
    # The web client's policy; the form may also lead to the app's redirect URI (a
    # browser applies form-action to the redirect that follows the POST).
    csp = HTML_CSP
    if redirect_uri and redirect_uri != OOB:
        parts = urlsplit(redirect_uri)
        target = f"{parts.scheme}://{parts.netloc}" if parts.netloc else f"{parts.scheme}:"
        csp = csp.replace("form-action 'self'", f"form-action 'self' {target}")
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>feedloom: authorize</title><link rel="stylesheet" href="/app.css"></head>'
        f'<body><main class="panel">{body}</main></body></html>'
    )
    headers = {"Content-Security-Policy": csp, **NO_STORE}
    return HTMLResponse(page, status_code=status, headers=headers)
