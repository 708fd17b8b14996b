from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.app_user_in import AppUserIn
from ...models.app_user_out import AppUserOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    external_id: str,
    *,
    body: AppUserIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/apps/users/{external_id}".format(
            external_id=quote(str(external_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AppUserOut | Problem | None:
    if response.status_code == 200:
        response_200 = AppUserOut.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = AppUserOut.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[AppUserOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: AppUserIn,
) -> Response[AppUserOut | Problem]:
    """Put User

     Create the app's user, or bring it up to date (idempotent). Such a user has no
    password: it acts through this API and the user tokens the app signs. 201 when
    created.

    Args:
        external_id (str): the app's own ID for the user
        body (AppUserIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppUserOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: AppUserIn,
) -> AppUserOut | Problem | None:
    """Put User

     Create the app's user, or bring it up to date (idempotent). Such a user has no
    password: it acts through this API and the user tokens the app signs. 201 when
    created.

    Args:
        external_id (str): the app's own ID for the user
        body (AppUserIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppUserOut | Problem
    """

    return sync_detailed(
        external_id=external_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: AppUserIn,
) -> Response[AppUserOut | Problem]:
    """Put User

     Create the app's user, or bring it up to date (idempotent). Such a user has no
    password: it acts through this API and the user tokens the app signs. 201 when
    created.

    Args:
        external_id (str): the app's own ID for the user
        body (AppUserIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppUserOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: AppUserIn,
) -> AppUserOut | Problem | None:
    """Put User

     Create the app's user, or bring it up to date (idempotent). Such a user has no
    password: it acts through this API and the user tokens the app signs. 201 when
    created.

    Args:
        external_id (str): the app's own ID for the user
        body (AppUserIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppUserOut | Problem
    """

    return (
        await asyncio_detailed(
            external_id=external_id,
            client=client,
            body=body,
        )
    ).parsed
