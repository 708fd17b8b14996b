from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.liked import Liked
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    external_id: str,
    post_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/apps/users/{external_id}/likes/{post_id}".format(
            external_id=quote(str(external_id), safe=""),
            post_id=quote(str(post_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Liked | Problem | None:
    if response.status_code == 200:
        response_200 = Liked.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Liked | Problem]:
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
) -> Response[Liked | Problem]:
    """Delete Like

     DELETE /v1/posts/{post_id}/like as the user (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Liked | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        post_id=post_id,
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
) -> Liked | Problem | None:
    """Delete Like

     DELETE /v1/posts/{post_id}/like as the user (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Liked | Problem
    """

    return sync_detailed(
        external_id=external_id,
        post_id=post_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Liked | Problem]:
    """Delete Like

     DELETE /v1/posts/{post_id}/like as the user (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Liked | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        post_id=post_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    external_id: str,
    post_id: str,
    *,
    client: AuthenticatedClient,
) -> Liked | Problem | None:
    """Delete Like

     DELETE /v1/posts/{post_id}/like as the user (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        post_id (str): post ID (decimal string)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Liked | Problem
    """

    return (
        await asyncio_detailed(
            external_id=external_id,
            post_id=post_id,
            client=client,
        )
    ).parsed
