from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.notification_page_out import NotificationPageOut
from ...models.notification_type import NotificationType
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    types: list[NotificationType] | None | Unset = UNSET,
    exclude_types: list[NotificationType] | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    json_types: list[str] | None | Unset
    if isinstance(types, Unset):
        json_types = UNSET
    elif isinstance(types, list):
        json_types = []
        for types_type_0_item_data in types:
            types_type_0_item: str = types_type_0_item_data
            json_types.append(types_type_0_item)

    else:
        json_types = types
    params["types"] = json_types

    json_exclude_types: list[str] | None | Unset
    if isinstance(exclude_types, Unset):
        json_exclude_types = UNSET
    elif isinstance(exclude_types, list):
        json_exclude_types = []
        for exclude_types_type_0_item_data in exclude_types:
            exclude_types_type_0_item: str = exclude_types_type_0_item_data
            json_exclude_types.append(exclude_types_type_0_item)

    else:
        json_exclude_types = exclude_types
    params["exclude_types"] = json_exclude_types

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/notifications",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> NotificationPageOut | Problem | None:
    if response.status_code == 200:
        response_200 = NotificationPageOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[NotificationPageOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    types: list[NotificationType] | None | Unset = UNSET,
    exclude_types: list[NotificationType] | None | Unset = UNSET,
) -> Response[NotificationPageOut | Problem]:
    """Get Notifications

     Your notifications, grouped, newest first, cursor-paged.

    Args:
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.
        types (list[NotificationType] | None | Unset): only these types (repeat the parameter for
            several)
        exclude_types (list[NotificationType] | None | Unset): only these types (repeat the
            parameter for several)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NotificationPageOut | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        types=types,
        exclude_types=exclude_types,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    types: list[NotificationType] | None | Unset = UNSET,
    exclude_types: list[NotificationType] | None | Unset = UNSET,
) -> NotificationPageOut | Problem | None:
    """Get Notifications

     Your notifications, grouped, newest first, cursor-paged.

    Args:
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.
        types (list[NotificationType] | None | Unset): only these types (repeat the parameter for
            several)
        exclude_types (list[NotificationType] | None | Unset): only these types (repeat the
            parameter for several)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NotificationPageOut | Problem
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        types=types,
        exclude_types=exclude_types,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    types: list[NotificationType] | None | Unset = UNSET,
    exclude_types: list[NotificationType] | None | Unset = UNSET,
) -> Response[NotificationPageOut | Problem]:
    """Get Notifications

     Your notifications, grouped, newest first, cursor-paged.

    Args:
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.
        types (list[NotificationType] | None | Unset): only these types (repeat the parameter for
            several)
        exclude_types (list[NotificationType] | None | Unset): only these types (repeat the
            parameter for several)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NotificationPageOut | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        types=types,
        exclude_types=exclude_types,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    types: list[NotificationType] | None | Unset = UNSET,
    exclude_types: list[NotificationType] | None | Unset = UNSET,
) -> NotificationPageOut | Problem | None:
    """Get Notifications

     Your notifications, grouped, newest first, cursor-paged.

    Args:
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.
        types (list[NotificationType] | None | Unset): only these types (repeat the parameter for
            several)
        exclude_types (list[NotificationType] | None | Unset): only these types (repeat the
            parameter for several)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NotificationPageOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            types=types,
            exclude_types=exclude_types,
        )
    ).parsed
