from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.tag_out import TagOut
from ...types import Response


def _get_kwargs(
    tag: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tags/{tag}".format(
            tag=quote(str(tag), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TagOut | None:
    if response.status_code == 200:
        response_200 = TagOut.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TagOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tag: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | TagOut]:
    """Get Tag

     A tag: its normal name, its live public posts, whether you follow it (a tag never
    used is there too, with no posts).

    Args:
        tag (str): the tag's name without `#`, in any case or Unicode form (`Café` is `café`); 404
            for what can be no tag

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TagOut]
    """

    kwargs = _get_kwargs(
        tag=tag,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tag: str,
    *,
    client: AuthenticatedClient,
) -> Problem | TagOut | None:
    """Get Tag

     A tag: its normal name, its live public posts, whether you follow it (a tag never
    used is there too, with no posts).

    Args:
        tag (str): the tag's name without `#`, in any case or Unicode form (`Café` is `café`); 404
            for what can be no tag

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TagOut
    """

    return sync_detailed(
        tag=tag,
        client=client,
    ).parsed


async def asyncio_detailed(
    tag: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | TagOut]:
    """Get Tag

     A tag: its normal name, its live public posts, whether you follow it (a tag never
    used is there too, with no posts).

    Args:
        tag (str): the tag's name without `#`, in any case or Unicode form (`Café` is `café`); 404
            for what can be no tag

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TagOut]
    """

    kwargs = _get_kwargs(
        tag=tag,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tag: str,
    *,
    client: AuthenticatedClient,
) -> Problem | TagOut | None:
    """Get Tag

     A tag: its normal name, its live public posts, whether you follow it (a tag never
    used is there too, with no posts).

    Args:
        tag (str): the tag's name without `#`, in any case or Unicode form (`Café` is `café`); 404
            for what can be no tag

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TagOut
    """

    return (
        await asyncio_detailed(
            tag=tag,
            client=client,
        )
    ).parsed
