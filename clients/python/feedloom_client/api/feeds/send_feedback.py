from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.feedback import Feedback
from ...models.feedback_out import FeedbackOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    generator_id: str,
    *,
    body: Feedback,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/generators/{generator_id}/feedback".format(
            generator_id=quote(str(generator_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FeedbackOut | Problem | None:
    if response.status_code == 202:
        response_202 = FeedbackOut.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 502:
        response_502 = Problem.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[FeedbackOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    generator_id: str,
    *,
    client: AuthenticatedClient,
    body: Feedback,
) -> Response[FeedbackOut | Problem]:
    """Send Feedback

     Tell the generator you saw, liked or want less of a post (sent only to generators
    that asked for feedback).

    Args:
        generator_id (str): generator ID (decimal string)
        body (Feedback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedbackOut | Problem]
    """

    kwargs = _get_kwargs(
        generator_id=generator_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    generator_id: str,
    *,
    client: AuthenticatedClient,
    body: Feedback,
) -> FeedbackOut | Problem | None:
    """Send Feedback

     Tell the generator you saw, liked or want less of a post (sent only to generators
    that asked for feedback).

    Args:
        generator_id (str): generator ID (decimal string)
        body (Feedback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedbackOut | Problem
    """

    return sync_detailed(
        generator_id=generator_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    generator_id: str,
    *,
    client: AuthenticatedClient,
    body: Feedback,
) -> Response[FeedbackOut | Problem]:
    """Send Feedback

     Tell the generator you saw, liked or want less of a post (sent only to generators
    that asked for feedback).

    Args:
        generator_id (str): generator ID (decimal string)
        body (Feedback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedbackOut | Problem]
    """

    kwargs = _get_kwargs(
        generator_id=generator_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    generator_id: str,
    *,
    client: AuthenticatedClient,
    body: Feedback,
) -> FeedbackOut | Problem | None:
    """Send Feedback

     Tell the generator you saw, liked or want less of a post (sent only to generators
    that asked for feedback).

    Args:
        generator_id (str): generator ID (decimal string)
        body (Feedback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedbackOut | Problem
    """

    return (
        await asyncio_detailed(
            generator_id=generator_id,
            client=client,
            body=body,
        )
    ).parsed
