from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.people_results import PeopleResults
from ...models.post_results import PostResults
from ...models.problem import Problem
from ...models.search_order import SearchOrder
from ...models.search_type import SearchType
from ...models.tag_results import TagResults
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: str,
    type_: SearchType | Unset = UNSET,
    order: SearchOrder | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["q"] = q

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order

    params["order"] = json_order

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
        "url": "/v1/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PeopleResults | PostResults | TagResults | Problem | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> PeopleResults | PostResults | TagResults:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = PostResults.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_1 = PeopleResults.from_dict(data)

                return response_200_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_2 = TagResults.from_dict(data)

            return response_200_type_2

        response_200 = _parse_response_200(response.json())

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
) -> Response[PeopleResults | PostResults | TagResults | Problem]:
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
    type_: SearchType | Unset = UNSET,
    order: SearchOrder | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PeopleResults | PostResults | TagResults | Problem]:
    """Search

     Posts holding every word, among those you may see (public ones, followers-only
    ones of accounts you follow, your own), less those of accounts you block, that
    block you or that you mute; or people with a word of their username or display
    name starting with each word, the exact username first; or tags starting with the
    first word (`#` or not), most used first. A cursor of another type or order is
    400.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        type_ (SearchType | Unset):
        order (SearchOrder | Unset):
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeopleResults | PostResults | TagResults | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        type_=type_,
        order=order,
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
    type_: SearchType | Unset = UNSET,
    order: SearchOrder | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PeopleResults | PostResults | TagResults | Problem | None:
    """Search

     Posts holding every word, among those you may see (public ones, followers-only
    ones of accounts you follow, your own), less those of accounts you block, that
    block you or that you mute; or people with a word of their username or display
    name starting with each word, the exact username first; or tags starting with the
    first word (`#` or not), most used first. A cursor of another type or order is
    400.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        type_ (SearchType | Unset):
        order (SearchOrder | Unset):
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeopleResults | PostResults | TagResults | Problem
    """

    return sync_detailed(
        client=client,
        q=q,
        type_=type_,
        order=order,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: str,
    type_: SearchType | Unset = UNSET,
    order: SearchOrder | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PeopleResults | PostResults | TagResults | Problem]:
    """Search

     Posts holding every word, among those you may see (public ones, followers-only
    ones of accounts you follow, your own), less those of accounts you block, that
    block you or that you mute; or people with a word of their username or display
    name starting with each word, the exact username first; or tags starting with the
    first word (`#` or not), most used first. A cursor of another type or order is
    400.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        type_ (SearchType | Unset):
        order (SearchOrder | Unset):
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeopleResults | PostResults | TagResults | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        type_=type_,
        order=order,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: str,
    type_: SearchType | Unset = UNSET,
    order: SearchOrder | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PeopleResults | PostResults | TagResults | Problem | None:
    """Search

     Posts holding every word, among those you may see (public ones, followers-only
    ones of accounts you follow, your own), less those of accounts you block, that
    block you or that you mute; or people with a word of their username or display
    name starting with each word, the exact username first; or tags starting with the
    first word (`#` or not), most used first. A cursor of another type or order is
    400.

    Args:
        q (str): words to find (case and Latin accents ignored); it must hold a letter or digit
        type_ (SearchType | Unset):
        order (SearchOrder | Unset):
        cursor (None | str | Unset): opaque, from next_cursor
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeopleResults | PostResults | TagResults | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            type_=type_,
            order=order,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
