from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.relation import Relation
from ...types import Response


def _get_kwargs(
    external_id: str,
    followee: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/apps/users/{external_id}/follows/{followee}".format(
            external_id=quote(str(external_id), safe=""),
            followee=quote(str(followee), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Relation | None:
    if response.status_code == 200:
        response_200 = Relation.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Relation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    external_id: str,
    followee: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | Relation]:
    """Put Follow

     The user follows the app's user `followee` (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        followee (str): the app's own ID for the user

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Relation]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        followee=followee,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    external_id: str,
    followee: str,
    *,
    client: AuthenticatedClient,
) -> Problem | Relation | None:
    """Put Follow

     The user follows the app's user `followee` (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        followee (str): the app's own ID for the user

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Relation
    """

    return sync_detailed(
        external_id=external_id,
        followee=followee,
        client=client,
    ).parsed


async def asyncio_detailed(
    external_id: str,
    followee: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | Relation]:
    """Put Follow

     The user follows the app's user `followee` (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        followee (str): the app's own ID for the user

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Relation]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        followee=followee,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    external_id: str,
    followee: str,
    *,
    client: AuthenticatedClient,
) -> Problem | Relation | None:
    """Put Follow

     The user follows the app's user `followee` (idempotent).

    Args:
        external_id (str): the app's own ID for the user
        followee (str): the app's own ID for the user

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Relation
    """

    return (
        await asyncio_detailed(
            external_id=external_id,
            followee=followee,
            client=client,
        )
    ).parsed
