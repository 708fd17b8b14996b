from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.found_person_out import FoundPersonOut
from ...models.problem import Problem
from ...types import UNSET, Response


def _get_kwargs(
    *,
    username: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["username"] = username

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/lookup",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> FoundPersonOut | Problem | None:
    if response.status_code == 200:
        response_200 = FoundPersonOut.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[FoundPersonOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    username: str,
) -> Response[FoundPersonOut | Problem]:
    """Lookup User

     The profile with this username, whatever its case, with your relations to it, as
    `GET /v1/users/{id}` (404 if none, or it blocks you).

    Args:
        username (str): case ignored

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FoundPersonOut | Problem]
    """

    kwargs = _get_kwargs(
        username=username,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    username: str,
) -> FoundPersonOut | Problem | None:
    """Lookup User

     The profile with this username, whatever its case, with your relations to it, as
    `GET /v1/users/{id}` (404 if none, or it blocks you).

    Args:
        username (str): case ignored

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FoundPersonOut | Problem
    """

    return sync_detailed(
        client=client,
        username=username,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    username: str,
) -> Response[FoundPersonOut | Problem]:
    """Lookup User

     The profile with this username, whatever its case, with your relations to it, as
    `GET /v1/users/{id}` (404 if none, or it blocks you).

    Args:
        username (str): case ignored

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FoundPersonOut | Problem]
    """

    kwargs = _get_kwargs(
        username=username,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    username: str,
) -> FoundPersonOut | Problem | None:
    """Lookup User

     The profile with this username, whatever its case, with your relations to it, as
    `GET /v1/users/{id}` (404 if none, or it blocks you).

    Args:
        username (str): case ignored

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FoundPersonOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            username=username,
        )
    ).parsed
