from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_trending_tags_window import GetTrendingTagsWindow
from ...models.problem import Problem
from ...models.trending_tags_page import TrendingTagsPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    window: GetTrendingTagsWindow | Unset = "1h",
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_window: str | Unset = UNSET
    if not isinstance(window, Unset):
        json_window = window

    params["window"] = json_window

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/trending/tags",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TrendingTagsPage | None:
    if response.status_code == 200:
        response_200 = TrendingTagsPage.from_dict(response.json())

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
) -> Response[Problem | TrendingTagsPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    window: GetTrendingTagsWindow | Unset = "1h",
    limit: int | Unset = 20,
) -> Response[Problem | TrendingTagsPage]:
    """Get Trending Tags

     Tags by the distinct authors using them in the window, best first; approximate (the
    sketches of trending posts).

    Args:
        window (GetTrendingTagsWindow | Unset): the last hour or day Default: '1h'.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TrendingTagsPage]
    """

    kwargs = _get_kwargs(
        window=window,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    window: GetTrendingTagsWindow | Unset = "1h",
    limit: int | Unset = 20,
) -> Problem | TrendingTagsPage | None:
    """Get Trending Tags

     Tags by the distinct authors using them in the window, best first; approximate (the
    sketches of trending posts).

    Args:
        window (GetTrendingTagsWindow | Unset): the last hour or day Default: '1h'.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TrendingTagsPage
    """

    return sync_detailed(
        client=client,
        window=window,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    window: GetTrendingTagsWindow | Unset = "1h",
    limit: int | Unset = 20,
) -> Response[Problem | TrendingTagsPage]:
    """Get Trending Tags

     Tags by the distinct authors using them in the window, best first; approximate (the
    sketches of trending posts).

    Args:
        window (GetTrendingTagsWindow | Unset): the last hour or day Default: '1h'.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TrendingTagsPage]
    """

    kwargs = _get_kwargs(
        window=window,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    window: GetTrendingTagsWindow | Unset = "1h",
    limit: int | Unset = 20,
) -> Problem | TrendingTagsPage | None:
    """Get Trending Tags

     Tags by the distinct authors using them in the window, best first; approximate (the
    sketches of trending posts).

    Args:
        window (GetTrendingTagsWindow | Unset): the last hour or day Default: '1h'.
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TrendingTagsPage
    """

    return (
        await asyncio_detailed(
            client=client,
            window=window,
            limit=limit,
        )
    ).parsed
