"""Accounts and sessions: POST /v1/accounts, /v1/sessions (sign in, list, revoke),
GET|PATCH|DELETE /v1/me, PUT /v1/me/password."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Cookie, Path, Request, Response

from feedloom.api.deps import (
    AccountsDep,
    AuthorPostsDep,
    ClientAddress,
    CurrentUser,
    EditProfileDep,
    EraseAccountDep,
    SessionsDep,
    ThisSession,
    Token,
)
from feedloom.api.routes.users import render_profile
from feedloom.api.schemas import (
    AccountCreated,
    NewAccount,
    NewSession,
    PasswordChange,
    PasswordConfirmation,
    Profile,
    ProfileEdit,
    SessionCreated,
    SessionList,
    SessionOut,
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


DEVICE_COOKIE = "feedloom_device"


@router.post("/sessions", status_code=201, response_model=SessionCreated)
async def create_session(
    body: NewSession,
    accounts: AccountsDep,
    address: ClientAddress,
    request: Request,
    response: Response,
    device: Annotated[
        str | None,
        Cookie(
            alias=DEVICE_COOKIE,
            max_length=128,
            description="set by an earlier sign-in to this account: the client is known, "
            "so a flood of wrong passwords from elsewhere does not shut it out",
        ),
    ] = None,
) -> SessionCreated:
    """Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs).

    Also sets the device cookie (HttpOnly, for this path only), which tells a later
    sign-in to this account that the client signed in before (docs/CLIENT_API.md)."""
    session = await accounts.open_session(body.username, body.password, address, device)
    response.set_cookie(
        DEVICE_COOKIE,
        session.device.value,
        expires=session.device.expires_at,
        path="/v1/sessions",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return SessionCreated(token=session.token, user_id=str(session.user_id))


@router.delete("/sessions/current", status_code=204)
async def delete_session(accounts: AccountsDep, token: Token, _user: CurrentUser) -> Response:
    """Log out: revoke the token of this request."""
    await accounts.close_session(token)
    return Response(status_code=204)


@router.get("/sessions", response_model=SessionList)
async def list_sessions(sessions: SessionsDep, current: ThisSession) -> SessionList:
    """Your signed-in sessions, newest first; expired ones are left out."""
    views = await sessions.list(current)
    return SessionList(
        items=[
            SessionOut(
                id=v.session_id,
                created_at=v.created_at,
                last_used_at=v.last_used_at,
                expires_at=v.expires_at,
                current=v.current,
                app=v.app,
            )
            for v in views
        ]
    )


@router.delete("/sessions", status_code=204)
async def delete_other_sessions(
    sessions: SessionsDep, current: ThisSession, token: Token
) -> Response:
    """Sign out everywhere else: every session but this one is revoked."""
    await sessions.revoke_others(current, token)
    return Response(status_code=204)


@router.delete("/sessions/{session_id}", status_code=204)
async def delete_one_session(
    session_id: Annotated[str, Path(max_length=64)], sessions: SessionsDep, user_id: CurrentUser
) -> Response:
    """Revoke one of your sessions (its `id` from GET /v1/sessions)."""
    await sessions.revoke(user_id, session_id)
    return Response(status_code=204)


@router.put("/me/password", status_code=204)
async def change_password(
    body: PasswordChange, accounts: AccountsDep, user_id: CurrentUser, token: Token
) -> Response:
    """A new password; the current one is required. Every other session is signed out."""
    await accounts.change_password(user_id, body.current_password, body.new_password, token)
    return Response(status_code=204)


@router.delete("/me", status_code=204)
async def delete_me(
    body: PasswordConfirmation,
    accounts: AccountsDep,
    erase: EraseAccountDep,
    user_id: CurrentUser,
) -> Response:
    """Delete your account for good (the password is required): what is erased and
    what is kept is in docs/CLIENT_API.md."""
    await accounts.confirm_password(user_id, body.password)
    await erase(user_id)
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
