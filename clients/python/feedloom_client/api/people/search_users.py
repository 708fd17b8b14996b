from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.people_page_out import PeoplePageOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: str,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["q"] = q

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PeoplePageOut | Problem | None:
    if response.status_code == 200:
        response_200 = PeoplePageOut.from_dict(response.json())

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
) -> Response[PeoplePageOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PeoplePageOut | Problem]:
    """Search Users

     People with a word of their username or display name starting with each word of
    `q` (case and Latin accents ignored; `Wonder` finds "Alice Wonder"): the exact
    username first, then by followers. Accounts blocked either way are left out. The
    same search as `GET /v1/search?type=people`.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeoplePageOut | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    q: str,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PeoplePageOut | Problem | None:
    """Search Users

     People with a word of their username or display name starting with each word of
    `q` (case and Latin accents ignored; `Wonder` finds "Alice Wonder"): the exact
    username first, then by followers. Accounts blocked either way are left out. The
    same search as `GET /v1/search?type=people`.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeoplePageOut | Problem
    """

    return sync_detailed(
        client=client,
        q=q,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PeoplePageOut | Problem]:
    """Search Users

     People with a word of their username or display name starting with each word of
    `q` (case and Latin accents ignored; `Wonder` finds "Alice Wonder"): the exact
    username first, then by followers. Accounts blocked either way are left out. The
    same search as `GET /v1/search?type=people`.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeoplePageOut | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: str,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PeoplePageOut | Problem | None:
    """Search Users

     People with a word of their username or display name starting with each word of
    `q` (case and Latin accents ignored; `Wonder` finds "Alice Wonder"): the exact
    username first, then by followers. Accounts blocked either way are left out. The
    same search as `GET /v1/search?type=people`.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeoplePageOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
