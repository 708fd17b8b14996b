from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.comment_out import CommentOut
from ...models.new_comment import NewComment
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    external_id: str,
    post_id: str,
    *,
    body: NewComment,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/apps/users/{external_id}/posts/{post_id}/comments".format(
            external_id=quote(str(external_id), safe=""),
            post_id=quote(str(post_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CommentOut | Problem | None:
    if response.status_code == 201:
        response_201 = CommentOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CommentOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
    body: NewComment,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CommentOut | Problem]:
    """Create Comment

     POST /v1/posts/{post_id}/comments as the user.

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewComment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        post_id=post_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
    body: NewComment,
    idempotency_key: None | str | Unset = UNSET,
) -> CommentOut | Problem | None:
    """Create Comment

     POST /v1/posts/{post_id}/comments as the user.

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewComment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentOut | Problem
    """

    return sync_detailed(
        external_id=external_id,
        post_id=post_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
    body: NewComment,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CommentOut | Problem]:
    """Create Comment

     POST /v1/posts/{post_id}/comments as the user.

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewComment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        post_id=post_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
    body: NewComment,
    idempotency_key: None | str | Unset = UNSET,
) -> CommentOut | Problem | None:
    """Create Comment

     POST /v1/posts/{post_id}/comments as the user.

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewComment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentOut | Problem
    """

    return (
        await asyncio_detailed(
            external_id=external_id,
            post_id=post_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
