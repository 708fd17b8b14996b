from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.saved_feed_page_out import SavedFeedPageOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    list_id: str,
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/lists/{list_id}/feed".format(
            list_id=quote(str(list_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SavedFeedPageOut | None:
    if response.status_code == 200:
        response_200 = SavedFeedPageOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Problem | SavedFeedPageOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    list_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[Problem | SavedFeedPageOut]:
    """List Feed

     The members' posts, newest first, keyset-paged, through the home feed's read-time
    filters and the list's replies policy.

    Args:
        list_id (str): list ID (decimal string)
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedFeedPageOut]
    """

    kwargs = _get_kwargs(
        list_id=list_id,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    list_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Problem | SavedFeedPageOut | None:
    """List Feed

     The members' posts, newest first, keyset-paged, through the home feed's read-time
    filters and the list's replies policy.

    Args:
        list_id (str): list ID (decimal string)
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedFeedPageOut
    """

    return sync_detailed(
        list_id=list_id,
        client=client,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    list_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[Problem | SavedFeedPageOut]:
    """List Feed

     The members' posts, newest first, keyset-paged, through the home feed's read-time
    filters and the list's replies policy.

    Args:
        list_id (str): list ID (decimal string)
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedFeedPageOut]
    """

    kwargs = _get_kwargs(
        list_id=list_id,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    list_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Problem | SavedFeedPageOut | None:
    """List Feed

     The members' posts, newest first, keyset-paged, through the home feed's read-time
    filters and the list's replies policy.

    Args:
        list_id (str): list ID (decimal string)
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedFeedPageOut
    """

    return (
        await asyncio_detailed(
            list_id=list_id,
            client=client,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
