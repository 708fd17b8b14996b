from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.feed_order import FeedOrder
from ...models.feed_page_out import FeedPageOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    external_id: str,
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    order: FeedOrder | None | Unset = UNSET,
    explain: bool | Unset = False,
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

    json_order: None | str | Unset
    if isinstance(order, Unset):
        json_order = UNSET
    elif isinstance(order, str):
        json_order = order
    else:
        json_order = order
    params["order"] = json_order

    params["explain"] = explain

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/apps/users/{external_id}/feed".format(
            external_id=quote(str(external_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FeedPageOut | Problem | None:
    if response.status_code == 200:
        response_200 = FeedPageOut.from_dict(response.json())

        return response_200

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
) -> Response[FeedPageOut | Problem]:
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
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    order: FeedOrder | None | Unset = UNSET,
    explain: bool | Unset = False,
) -> Response[FeedPageOut | Problem]:
    """Get Feed

     GET /v1/feed as the user: the same page, the same shape.

    Args:
        external_id (str): the app's own ID for the user
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):
        order (FeedOrder | None | Unset): default: the user's setting
        explain (bool | Unset): add each item's source and score Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedPageOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        cursor=cursor,
        limit=limit,
        order=order,
        explain=explain,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    external_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    order: FeedOrder | None | Unset = UNSET,
    explain: bool | Unset = False,
) -> FeedPageOut | Problem | None:
    """Get Feed

     GET /v1/feed as the user: the same page, the same shape.

    Args:
        external_id (str): the app's own ID for the user
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):
        order (FeedOrder | None | Unset): default: the user's setting
        explain (bool | Unset): add each item's source and score Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedPageOut | Problem
    """

    return sync_detailed(
        external_id=external_id,
        client=client,
        cursor=cursor,
        limit=limit,
        order=order,
        explain=explain,
    ).parsed


async def asyncio_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    order: FeedOrder | None | Unset = UNSET,
    explain: bool | Unset = False,
) -> Response[FeedPageOut | Problem]:
    """Get Feed

     GET /v1/feed as the user: the same page, the same shape.

    Args:
        external_id (str): the app's own ID for the user
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):
        order (FeedOrder | None | Unset): default: the user's setting
        explain (bool | Unset): add each item's source and score Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedPageOut | Problem]
    """

    kwargs = _get_kwargs(
        external_id=external_id,
        cursor=cursor,
        limit=limit,
        order=order,
        explain=explain,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    external_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    order: FeedOrder | None | Unset = UNSET,
    explain: bool | Unset = False,
) -> FeedPageOut | Problem | None:
    """Get Feed

     GET /v1/feed as the user: the same page, the same shape.

    Args:
        external_id (str): the app's own ID for the user
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | None | Unset):
        order (FeedOrder | None | Unset): default: the user's setting
        explain (bool | Unset): add each item's source and score Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedPageOut | Problem
    """

    return (
        await asyncio_detailed(
            external_id=external_id,
            client=client,
            cursor=cursor,
            limit=limit,
            order=order,
            explain=explain,
        )
    ).parsed
