from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.read_marker import ReadMarker
from ...models.unread_out import UnreadOut
from ...types import Response


def _get_kwargs(
    *,
    body: ReadMarker,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/notifications/read",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | UnreadOut | None:
    if response.status_code == 200:
        response_200 = UnreadOut.from_dict(response.json())

        return response_200

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

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | UnreadOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ReadMarker,
) -> Response[Problem | UnreadOut]:
    """Mark Read

     Mark everything up to `up_to` read. Idempotent; a marker never moves backwards
    (an older ID changes nothing); an ID above 2^63-1 or from the future is 422.

    Args:
        body (ReadMarker):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UnreadOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ReadMarker,
) -> Problem | UnreadOut | None:
    """Mark Read

     Mark everything up to `up_to` read. Idempotent; a marker never moves backwards
    (an older ID changes nothing); an ID above 2^63-1 or from the future is 422.

    Args:
        body (ReadMarker):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UnreadOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ReadMarker,
) -> Response[Problem | UnreadOut]:
    """Mark Read

     Mark everything up to `up_to` read. Idempotent; a marker never moves backwards
    (an older ID changes nothing); an ID above 2^63-1 or from the future is 422.

    Args:
        body (ReadMarker):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UnreadOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ReadMarker,
) -> Problem | UnreadOut | None:
    """Mark Read

     Mark everything up to `up_to` read. Idempotent; a marker never moves backwards
    (an older ID changes nothing); an ID above 2^63-1 or from the future is 422.

    Args:
        body (ReadMarker):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UnreadOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
