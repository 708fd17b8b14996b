"""The rows of a `:batch` request: NDJSON (one JSON object a line) or one JSON array.

The body is read whole, within the batch body limit (FEEDLOOM_APPS__BATCH_MAX_BYTES,
enforced as it streams in: api/app.py), and at most FEEDLOOM_APPS__BATCH_MAX_ROWS
rows are accepted, counted before anything is written. Rows are then decoded a chunk
at a time, so the objects alive at once are one chunk's, whatever the batch's size.
A line or element that is not an object of the row's shape is that row's error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import orjson
from fastapi import Request
from pydantic import BaseModel, ValidationError

from feedloom.domain.errors import FeedloomError, InvalidInput

NDJSON = ("application/x-ndjson", "application/jsonl", "application/json-seq")
T = TypeVar("T", bound=BaseModel)


class BatchTooLarge(FeedloomError):
    """More rows than one batch may hold (413)."""


async def raw_rows(request: Request, max_rows: int) -> list[Any]:
    """Each row undecoded: an NDJSON line (bytes), or a decoded array element."""
    body = await request.body()
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type in NDJSON:
        rows: list[Any] = [line for line in body.splitlines() if line.strip()]
    else:
        try:
            decoded = orjson.loads(body)
        except orjson.JSONDecodeError as error:
            raise FeedloomError("the body is neither a JSON array nor NDJSON") from error
        if not isinstance(decoded, list):
            raise InvalidInput("the body must be a JSON array of rows (or NDJSON)")
        rows = decoded
    if not rows:
        raise InvalidInput("the batch has no rows")
    if len(rows) > max_rows:
        raise BatchTooLarge(f"a batch holds at most {max_rows} rows; this one has {len(rows)}")
    return rows


def chunks(
    rows: list[Any], size: int, model: type[T], convert: Callable[[T], Any]
) -> Iterator[tuple[int, list[Any]]]:
    """(index of the chunk's first row, its rows decoded: `convert(row)` or the row's
    error)."""
    for start in range(0, len(rows), size):
        yield start, [_decode(raw, model, convert) for raw in rows[start : start + size]]


def _decode(raw: Any, model: type[T], convert: Callable[[T], Any]) -> Any:
    try:
        value = orjson.loads(raw) if isinstance(raw, bytes) else raw
        return convert(model.model_validate(value))
    except orjson.JSONDecodeError:
        return InvalidInput("the line is not JSON")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "row"
        return InvalidInput(f"{where}: {first.get('msg', 'invalid')}")
