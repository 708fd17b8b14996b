"""Accounts and sessions: POST /v1/accounts, POST|DELETE /v1/sessions, GET /v1/me."""

from __future__ import annotations

from fastapi import APIRouter, Response

from feedloom.api.deps import BackendDep, CurrentUser, Token
from feedloom.api.routes.users import render_profile
from feedloom.api.schemas import AccountCreated, NewAccount, NewSession, Profile, SessionCreated
from feedloom.read.author_posts import user_profile
from feedloom.write.accounts import close_session, open_session, register_account

router = APIRouter(prefix="/v1", tags=["accounts"])


@router.post("/accounts", status_code=201, response_model=AccountCreated)
async def create_account(
    body: NewAccount, backend: BackendDep, response: Response
) -> AccountCreated:
    user_id = await register_account(backend, body.username, body.password, body.display_name)
    response.headers["Location"] = f"/v1/users/{user_id}"
    return AccountCreated(id=str(user_id), username=body.username)


@router.post("/sessions", status_code=201, response_model=SessionCreated)
async def create_session(body: NewSession, backend: BackendDep) -> SessionCreated:
    token = await open_session(backend, body.username, body.password)
    credentials = await backend.accounts.credentials(body.username)
    assert credentials is not None
    return SessionCreated(token=token, user_id=str(credentials.user_id))


@router.delete("/sessions/current", status_code=204)
async def delete_session(backend: BackendDep, token: Token, _user: CurrentUser) -> Response:
    await close_session(backend, token)
    return Response(status_code=204)


@router.get("/me", response_model=Profile)
async def me(backend: BackendDep, user_id: CurrentUser) -> Profile:
    return render_profile(await user_profile(backend, user_id, user_id))
