"""Accounts and sessions: POST /v1/accounts, POST|DELETE /v1/sessions, GET|PATCH /v1/me."""

from __future__ import annotations

from fastapi import APIRouter, Response

from feedloom.api.deps import (
    AccountsDep,
    AuthorPostsDep,
    ClientAddress,
    CurrentUser,
    EditProfileDep,
    Token,
)
from feedloom.api.routes.users import render_profile
from feedloom.api.schemas import (
    AccountCreated,
    NewAccount,
    NewSession,
    Profile,
    ProfileEdit,
    SessionCreated,
)

router = APIRouter(prefix="/v1", tags=["accounts"])


@router.post("/accounts", status_code=201, response_model=AccountCreated)
async def create_account(
    body: NewAccount, accounts: AccountsDep, address: ClientAddress, response: Response
) -> AccountCreated:
    """Sign up. Usernames are unique regardless of case; the password is stored argon2-hashed."""
    user_id = await accounts.register(body.username, body.password, body.display_name, address)
    response.headers["Location"] = f"/v1/users/{user_id}"
    return AccountCreated(id=str(user_id), username=body.username)


@router.post("/sessions", status_code=201, response_model=SessionCreated)
async def create_session(
    body: NewSession, accounts: AccountsDep, address: ClientAddress
) -> SessionCreated:
    """Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs)."""
    session = await accounts.open_session(body.username, body.password, address)
    return SessionCreated(token=session.token, user_id=str(session.user_id))


@router.delete("/sessions/current", status_code=204)
async def delete_session(accounts: AccountsDep, token: Token, _user: CurrentUser) -> Response:
    """Log out: revoke the token of this request."""
    await accounts.close_session(token)
    return Response(status_code=204)


@router.get("/me", response_model=Profile)
async def me(profiles: AuthorPostsDep, user_id: CurrentUser) -> Profile:
    """The signed-in user's own profile."""
    return render_profile(await profiles.profile(user_id, user_id))


@router.patch("/me", response_model=Profile)
async def edit_me(
    body: ProfileEdit, edit: EditProfileDep, profiles: AuthorPostsDep, user_id: CurrentUser
) -> Profile:
    """Edit your display name, bio or avatar; fields not sent stay as they are."""
    await edit(
        user_id,
        body.display_name,
        body.bio,
        set_avatar="avatar_media_id" in body.model_fields_set,
        avatar_media_id=body.avatar_media_id,
    )
    return render_profile(await profiles.profile(user_id, user_id))
