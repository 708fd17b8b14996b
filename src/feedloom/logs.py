"""Process logging: one stderr handler, plain text or JSON lines, each line with its
request ID.

The ID lives in a contextvar that the HTTP middleware (`api/observability.py`) sets
for the length of a request; a filter on the handler copies it onto every record, so
lines from any logger (ours, uvicorn's access log, a library's) carry it without
being passed anything. Outside a request it is "-".
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TextIO

import orjson

from feedloom.settings import Settings

request_id: ContextVar[str | None] = ContextVar("feedloom_request_id", default=None)
NO_REQUEST = "-"
HANDLER_NAME = "feedloom"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"

# Attributes every LogRecord has; anything else came in through `extra=` and is kept
# as a field of the JSON line.
_STANDARD = frozenset(
    {
        *logging.LogRecord("", 0, "", 0, "", None, None).__dict__,
        "message",
        "asctime",
        "request_id",
        "color_message",  # uvicorn's ANSI-coloured copy of the message
    }
)


class RequestIdFilter(logging.Filter):
    """Stamps `record.request_id`; a record that brought its own (via `extra=`) keeps it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get() or NO_REQUEST
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, request_id, the
    `extra=` fields, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", NO_REQUEST),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD:
                line[key] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return orjson.dumps(line, default=str).decode()


class StartedOnce(logging.Filter):
    """uvicorn says "Started server process" for every server it runs, and a process
    runs up to three (the API, the admin port, the embedded control channel): one line
    says it."""

    def __init__(self) -> None:
        super().__init__()
        self._said = False

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Started server process"):
            return True
        said, self._said = self._said, True
        return not said


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Install the process's log handler on the root logger (replacing one installed
    before, so calling twice is harmless) and return it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(HANDLER_NAME)
    handler.addFilter(RequestIdFilter())
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    uvicorn_error = logging.getLogger("uvicorn.error")
    for old_filter in [f for f in uvicorn_error.filters if isinstance(f, StartedOnce)]:
        uvicorn_error.removeFilter(old_filter)
    uvicorn_error.addFilter(StartedOnce())
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    return handler
