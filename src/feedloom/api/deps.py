"""Dependencies shared by the routes, as Annotated aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request

from feedloom.backend import Backend
from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.domain.ids import parse_id
from feedloom.write.accounts import authenticate


def get_backend(request: Request) -> Backend:
    backend: Backend = request.app.state.backend
    return backend


BackendDep = Annotated[Backend, Depends(get_backend)]


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send `Authorization: Bearer <token>` (POST /v1/sessions gives one)")
    return token.strip()


async def current_user(request: Request, backend: BackendDep) -> int:
    return await authenticate(backend, bearer_token(request))


CurrentUser = Annotated[int, Depends(current_user)]
Token = Annotated[str, Depends(bearer_token)]


def post_id_path(post_id: Annotated[str, Path(description="post ID (decimal string)")]) -> int:
    return _parse("post", post_id)


def user_id_path(user_id: Annotated[str, Path(description="user ID (decimal string)")]) -> int:
    return _parse("user", user_id)


def _parse(kind: str, value: str) -> int:
    try:
        return parse_id(value)
    except ValueError as error:
        raise NotFound(f"no {kind} with id {value!r}") from error


PostId = Annotated[int, Depends(post_id_path)]
UserId = Annotated[int, Depends(user_id_path)]
Cursor = Annotated[str | None, Query(max_length=512, description="opaque, from next_cursor")]
