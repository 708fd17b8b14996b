"""Who is asking, and may they: the bearer token (a session, write/sessions.py) and the
scope an endpoint needs (domain/scopes.py). A first-party session (POST /v1/sessions)
may do everything; a token granted to an app only what its scopes cover: 403 outside
them, as Mastodon answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from feedloom.api.deps import feedloom_of
from feedloom.domain.errors import Forbidden, Unauthorized
from feedloom.domain.scopes import covers
from feedloom.write.sessions import CurrentSession

OUTSIDE = "This action is outside the authorized scopes"


def token_of(request: HTTPConnection) -> str | None:
    """The bearer token, from `Authorization` (or, for streaming, `access_token`)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.query_params.get("access_token") or None


async def session_of(request: Request, token: str | None = None) -> CurrentSession:
    token = token or token_of(request)
    if token is None:
        raise Unauthorized("The access token is invalid")
    return await feedloom_of(request).services.auth.session(token)


def scoped_session(scope: str) -> Callable[[Request], Awaitable[CurrentSession]]:
    """A dependency: the session, if the token's scopes cover `scope`."""

    async def current(request: Request) -> CurrentSession:
        session = await session_of(request)
        if session.scopes is not None and not covers(session.scopes, scope):
            raise Forbidden(OUTSIDE)
        return session

    return current


def scoped(scope: str) -> Callable[[Request], Awaitable[int]]:
    """A dependency: the signed-in user, if the token's scopes cover `scope`."""
    session_in = scoped_session(scope)

    async def user(request: Request) -> int:
        return (await session_in(request)).user_id

    return user


ReadAccounts = Annotated[int, Depends(scoped("read:accounts"))]
WriteAccounts = Annotated[int, Depends(scoped("write:accounts"))]
ReadFollows = Annotated[int, Depends(scoped("read:follows"))]
WriteFollows = Annotated[int, Depends(scoped("write:follows"))]
ReadBlocks = Annotated[int, Depends(scoped("read:blocks"))]
WriteBlocks = Annotated[int, Depends(scoped("write:blocks"))]
ReadMutes = Annotated[int, Depends(scoped("read:mutes"))]
WriteMutes = Annotated[int, Depends(scoped("write:mutes"))]
ReadStatuses = Annotated[int, Depends(scoped("read:statuses"))]
WriteStatuses = Annotated[int, Depends(scoped("write:statuses"))]
WriteFavourites = Annotated[int, Depends(scoped("write:favourites"))]
WriteMedia = Annotated[int, Depends(scoped("write:media"))]
ReadSearch = Annotated[int, Depends(scoped("read:search"))]
ReadNotifications = Annotated[int, Depends(scoped("read:notifications"))]
WriteNotifications = Annotated[int, Depends(scoped("write:notifications"))]
