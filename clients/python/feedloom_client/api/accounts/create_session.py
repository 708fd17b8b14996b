from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_session import NewSession
from ...models.problem import Problem
from ...models.session_created import SessionCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: NewSession,
    feedloom_device: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    cookies = {}
    if feedloom_device is not UNSET:
        cookies["feedloom_device"] = feedloom_device

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions",
        "cookies": cookies,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SessionCreated | None:
    if response.status_code == 201:
        response_201 = SessionCreated.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[Problem | SessionCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewSession,
    feedloom_device: None | str | Unset = UNSET,
) -> Response[Problem | SessionCreated]:
    """Create Session

     Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs).

    Also sets the device cookie (HttpOnly, for this path only), which tells a later
    sign-in to this account that the client signed in before (docs/CLIENT_API.md).

    Args:
        feedloom_device (None | str | Unset): set by an earlier sign-in to this account: the
            client is known, so a flood of wrong passwords from elsewhere does not shut it out
        body (NewSession):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        feedloom_device=feedloom_device,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: NewSession,
    feedloom_device: None | str | Unset = UNSET,
) -> Problem | SessionCreated | None:
    """Create Session

     Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs).

    Also sets the device cookie (HttpOnly, for this path only), which tells a later
    sign-in to this account that the client signed in before (docs/CLIENT_API.md).

    Args:
        feedloom_device (None | str | Unset): set by an earlier sign-in to this account: the
            client is known, so a flood of wrong passwords from elsewhere does not shut it out
        body (NewSession):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionCreated
    """

    return sync_detailed(
        client=client,
        body=body,
        feedloom_device=feedloom_device,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewSession,
    feedloom_device: None | str | Unset = UNSET,
) -> Response[Problem | SessionCreated]:
    """Create Session

     Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs).

    Also sets the device cookie (HttpOnly, for this path only), which tells a later
    sign-in to this account that the client signed in before (docs/CLIENT_API.md).

    Args:
        feedloom_device (None | str | Unset): set by an earlier sign-in to this account: the
            client is known, so a flood of wrong passwords from elsewhere does not shut it out
        body (NewSession):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        feedloom_device=feedloom_device,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NewSession,
    feedloom_device: None | str | Unset = UNSET,
) -> Problem | SessionCreated | None:
    """Create Session

     Log in: a bearer token, for `Authorization: Bearer` (*Authorize* in /docs).

    Also sets the device cookie (HttpOnly, for this path only), which tells a later
    sign-in to this account that the client signed in before (docs/CLIENT_API.md).

    Args:
        feedloom_device (None | str | Unset): set by an earlier sign-in to this account: the
            client is known, so a flood of wrong passwords from elsewhere does not shut it out
        body (NewSession):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            feedloom_device=feedloom_device,
        )
    ).parsed
