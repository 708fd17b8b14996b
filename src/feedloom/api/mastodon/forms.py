"""A request's parameters as Mastodon clients send them: a form, JSON or the query
string (Mastodon takes any), as (name, value) pairs; `name[]` is a list."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import orjson
from fastapi import Request
from starlette.datastructures import UploadFile

from feedloom.domain.errors import FeedloomError, InvalidInput

Pairs = list[tuple[str, str]]


async def params_of(request: Request) -> Pairs:
    pairs: Pairs = list(request.query_params.multi_items())
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        body = await request.body()
        try:
            data = orjson.loads(body) if body else {}
        except orjson.JSONDecodeError as error:
            raise FeedloomError("the request body is not valid JSON") from error
        if not isinstance(data, dict):
            raise InvalidInput("the request body must be a JSON object")
        pairs += _flatten(data)
    elif kind == "application/x-www-form-urlencoded":
        pairs += parse_qsl((await request.body()).decode("utf-8", "replace"), True)
    elif kind == "multipart/form-data":
        async with request.form() as form:
            pairs += [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
    return pairs


async def params_and_files(request: Request) -> tuple[Pairs, dict[str, bytes]]:
    """params_of, and the bytes of a multipart body's file parts by name (read before
    the form is closed: a large part is spooled to disk)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "multipart/form-data":
        return await params_of(request), {}
    pairs: Pairs = list(request.query_params.multi_items())
    files: dict[str, bytes] = {}
    async with request.form() as form:
        for key, value in form.multi_items():
            if isinstance(value, UploadFile):
                files[key] = await value.read()
            else:
                pairs.append((key, value))
    return pairs, files


def _flatten(data: dict[str, Any]) -> Pairs:
    pairs: Pairs = []
    for key, value in data.items():
        values = value if isinstance(value, list) else [value]
        name = key if not isinstance(value, list) or key.endswith("[]") else f"{key}[]"
        for item in values:
            if item is None:
                continue
            text = item if isinstance(item, str) else orjson.dumps(item).decode()
            pairs.append((name, text.lower() if isinstance(item, bool) else text))
    return pairs


def one(pairs: Pairs, name: str) -> str | None:
    return next((value for key, value in pairs if key == name), None)


def many(pairs: Pairs, name: str) -> list[str]:
    return [value for key, value in pairs if key in (name, f"{name}[]")]


def flag(pairs: Pairs, name: str) -> bool | None:
    value = one(pairs, name)
    if value is None:
        return None
    return value.lower() in ("1", "true", "on", "yes")
