from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    ticket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["last-event-id"] = last_event_id

    params: dict[str, Any] = {}

    json_ticket: None | str | Unset
    if isinstance(ticket, Unset):
        json_ticket = UNSET
    else:
        json_ticket = ticket
    params["ticket"] = json_ticket

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    else:
        json_since = since
    params["since"] = json_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/streams/home",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    ticket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Home Stream

     Pushes an event each time your home feed gains a post you would see, with the
    count above `since` (default: what is there when the stream opens) and the newest
    ID; and a `notification` event each time your notifications change (the unread
    count and the new or updated group). Authenticate with `?ticket=` or the bearer
    token.

    Args:
        ticket (None | str | Unset): from POST …/tickets
        since (None | str | Unset): count posts newer than this ID
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        ticket=ticket,
        since=since,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    ticket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Any | Problem | None:
    """Home Stream

     Pushes an event each time your home feed gains a post you would see, with the
    count above `since` (default: what is there when the stream opens) and the newest
    ID; and a `notification` event each time your notifications change (the unread
    count and the new or updated group). Authenticate with `?ticket=` or the bearer
    token.

    Args:
        ticket (None | str | Unset): from POST …/tickets
        since (None | str | Unset): count posts newer than this ID
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        client=client,
        ticket=ticket,
        since=since,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    ticket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Home Stream

     Pushes an event each time your home feed gains a post you would see, with the
    count above `since` (default: what is there when the stream opens) and the newest
    ID; and a `notification` event each time your notifications change (the unread
    count and the new or updated group). Authenticate with `?ticket=` or the bearer
    token.

    Args:
        ticket (None | str | Unset): from POST …/tickets
        since (None | str | Unset): count posts newer than this ID
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        ticket=ticket,
        since=since,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    ticket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Any | Problem | None:
    """Home Stream

     Pushes an event each time your home feed gains a post you would see, with the
    count above `since` (default: what is there when the stream opens) and the newest
    ID; and a `notification` event each time your notifications change (the unread
    count and the new or updated group). Authenticate with `?ticket=` or the bearer
    token.

    Args:
        ticket (None | str | Unset): from POST …/tickets
        since (None | str | Unset): count posts newer than this ID
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            ticket=ticket,
            since=since,
            last_event_id=last_event_id,
        )
    ).parsed
