from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.generator_out import GeneratorOut
from ...models.new_generator import NewGenerator
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: NewGenerator,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/generators",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GeneratorOut | Problem | None:
    if response.status_code == 201:
        response_201 = GeneratorOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[GeneratorOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: NewGenerator,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[GeneratorOut | Problem]:
    """Register Generator

     Register a generator (422 for a URI feedloom may not call; 409 if registered);
    the answer carries the secret that signs its requests.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewGenerator):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GeneratorOut | Problem]
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
    body: NewGenerator,
    idempotency_key: None | str | Unset = UNSET,
) -> GeneratorOut | Problem | None:
    """Register Generator

     Register a generator (422 for a URI feedloom may not call; 409 if registered);
    the answer carries the secret that signs its requests.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewGenerator):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GeneratorOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: NewGenerator,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[GeneratorOut | Problem]:
    """Register Generator

     Register a generator (422 for a URI feedloom may not call; 409 if registered);
    the answer carries the secret that signs its requests.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewGenerator):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GeneratorOut | Problem]
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
    body: NewGenerator,
    idempotency_key: None | str | Unset = UNSET,
) -> GeneratorOut | Problem | None:
    """Register Generator

     Register a generator (422 for a URI feedloom may not call; 409 if registered);
    the answer carries the secret that signs its requests.

    Args:
        idempotency_key (None | str | Unset): a retry with the same key answers as the first
            request did (1-255 printable ASCII characters)
        body (NewGenerator):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GeneratorOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
