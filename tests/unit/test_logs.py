"""configure_logging: text or JSON lines, each with the request ID of its request."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import orjson
import pytest

from feedloom.logs import configure_logging, request_id
from feedloom.settings import Settings

log = logging.getLogger("feedloom.test")


@pytest.fixture
def restored_root() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.usefixtures("restored_root")
def test_json_lines_carry_the_request_id_the_extra_fields_and_the_traceback() -> None:
    out = io.StringIO()
    configure_logging(Settings(log_format="json"), out)
    token = request_id.set("req-1")
    try:
        log.info("feed served to %s", "alice", extra={"items": 20})
        try:
            raise ValueError("broken")
        except ValueError:
            log.exception("ranker failed")
    finally:
        request_id.reset(token)
    log.warning("between requests")
    served, failed, idle = (orjson.loads(line) for line in out.getvalue().splitlines())
    assert served["message"] == "feed served to alice"
    assert served["level"] == "INFO"
    assert served["logger"] == "feedloom.test"
    assert served["request_id"] == "req-1"
    assert served["items"] == 20
    assert served["time"].endswith("+00:00")
    assert "ValueError: broken" in failed["exc_info"]
    assert idle["request_id"] == "-"


@pytest.mark.usefixtures("restored_root")
def test_text_lines_show_the_request_id_in_brackets() -> None:
    out = io.StringIO()
    configure_logging(Settings(), out)
    token = request_id.set("req-2")
    try:
        log.info("hello")
    finally:
        request_id.reset(token)
    assert out.getvalue().rstrip().endswith("INFO feedloom.test [req-2]: hello")


@pytest.mark.usefixtures("restored_root")
def test_configuring_twice_keeps_one_handler_and_the_chosen_level() -> None:
    first, second = io.StringIO(), io.StringIO()
    configure_logging(Settings(), first)
    configure_logging(Settings(log_level="WARNING"), second)
    log.info("dropped")
    log.warning("kept")
    assert first.getvalue() == ""
    assert second.getvalue().count("\n") == 1
    assert "kept" in second.getvalue()
