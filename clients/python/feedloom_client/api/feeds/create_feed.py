from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.feed_out import FeedOut
from ...models.new_feed_type_0 import NewFeedType0
from ...models.new_feed_type_1 import NewFeedType1
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: NewFeedType0 | NewFeedType1,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/feeds",
    }

    if isinstance(body, NewFeedType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FeedOut | Problem | None:
    if response.status_code == 201:
        response_201 = FeedOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FeedOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: NewFeedType0 | NewFeedType1,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[FeedOut | Problem]:
    """Create Feed

     Save a feed definition (422 naming what is wrong with it; 409 past
    `saved_feeds.max_per_user`); `Idempotency-Key` makes a retry safe.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewFeedType0 | NewFeedType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: NewFeedType0 | NewFeedType1,
    idempotency_key: None | str | Unset = UNSET,
) -> FeedOut | Problem | None:
    """Create Feed

     Save a feed definition (422 naming what is wrong with it; 409 past
    `saved_feeds.max_per_user`); `Idempotency-Key` makes a retry safe.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewFeedType0 | NewFeedType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: NewFeedType0 | NewFeedType1,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[FeedOut | Problem]:
    """Create Feed

     Save a feed definition (422 naming what is wrong with it; 409 past
    `saved_feeds.max_per_user`); `Idempotency-Key` makes a retry safe.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewFeedType0 | NewFeedType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: NewFeedType0 | NewFeedType1,
    idempotency_key: None | str | Unset = UNSET,
) -> FeedOut | Problem | None:
    """Create Feed

     Save a feed definition (422 naming what is wrong with it; 409 past
    `saved_feeds.max_per_user`); `Idempotency-Key` makes a retry safe.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewFeedType0 | NewFeedType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
