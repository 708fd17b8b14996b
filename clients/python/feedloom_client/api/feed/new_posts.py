from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_posts_out import NewPostsOut
from ...models.problem import Problem
from ...types import UNSET, Response


def _get_kwargs(
    *,
    since: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["since"] = since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/feed/new",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> NewPostsOut | Problem | None:
    if response.status_code == 200:
        response_200 = NewPostsOut.from_dict(response.json())

        return response_200

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
) -> Response[NewPostsOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    since: str,
) -> Response[NewPostsOut | Problem]:
    """New Posts

     How many posts newer than `since` the top of your chronological feed would show,
    after the same filters as GET /v1/feed: poll it for an "N new posts" button, then
    load the top page. Served from the caches.

    Args:
        since (str): the newest post ID the client shows; 0: none yet

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NewPostsOut | Problem]
    """

    kwargs = _get_kwargs(
        since=since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    since: str,
) -> NewPostsOut | Problem | None:
    """New Posts

     How many posts newer than `since` the top of your chronological feed would show,
    after the same filters as GET /v1/feed: poll it for an "N new posts" button, then
    load the top page. Served from the caches.

    Args:
        since (str): the newest post ID the client shows; 0: none yet

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NewPostsOut | Problem
    """

    return sync_detailed(
        client=client,
        since=since,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    since: str,
) -> Response[NewPostsOut | Problem]:
    """New Posts

     How many posts newer than `since` the top of your chronological feed would show,
    after the same filters as GET /v1/feed: poll it for an "N new posts" button, then
    load the top page. Served from the caches.

    Args:
        since (str): the newest post ID the client shows; 0: none yet

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NewPostsOut | Problem]
    """

    kwargs = _get_kwargs(
        since=since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    since: str,
) -> NewPostsOut | Problem | None:
    """New Posts

     How many posts newer than `since` the top of your chronological feed would show,
    after the same filters as GET /v1/feed: poll it for an "N new posts" button, then
    load the top page. Served from the caches.

    Args:
        since (str): the newest post ID the client shows; 0: none yet

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NewPostsOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            since=since,
        )
    ).parsed
