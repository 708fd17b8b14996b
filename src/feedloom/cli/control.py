"""The command's side of the control channel (api/control.py): find the embedded
server running on this data dir, and call it.

Commands whose effect lives in an embedded server's memory (its timelines, sessions
and cached views) go through it when it runs; when none runs there is no such memory,
and they act on the store directly. With Redis there is no control channel at all.
"""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.api.control import ControlAddress
    from feedloom.settings import Settings

TIMEOUT_S = 60.0  # a single account change; streams wait for each progress line only


class ControlClient:
    def __init__(self, address: ControlAddress) -> None:
        self.address = address

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer; a refusal is the command's one-line failure."""
        with self._request(method, path, body) as response:
            return json.loads(response.read())

    def stream(self, path: str, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The NDJSON lines of a long operation, as they come."""
        with self._request("POST", path, body) as response:
            while line := response.readline():
                yield json.loads(line)

    def _request(
        self, method: str, path: str, body: dict[str, Any] | None
    ) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.address.port, timeout=TIMEOUT_S)
        headers = {"Authorization": f"Bearer {self.address.token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, payload, headers)
            response = connection.getresponse()
        except OSError as error:
            fail(f"the running feedloom server (pid {self.address.pid}) did not answer: {error}")
        if response.status >= 400:
            refuse(response)
        return response


def refuse(response: http.client.HTTPResponse) -> None:
    """The server's problem detail as the command's one line: exit 2 for bad input."""
    try:
        detail = json.loads(response.read()).get("detail", response.reason)
    except ValueError:
        detail = response.reason
    fail(str(detail), USAGE if response.status == 422 else 1)


def running_server(settings: Settings) -> ControlClient | None:
    """The embedded server on this data dir, if one runs and answers."""
    from feedloom.api.control import read_control_file

    if not settings.is_embedded:
        return None
    address = read_control_file(settings.data_dir)
    if address is None or not _alive(address.pid):
        return None  # none started, or one that died without removing its file
    probe = http.client.HTTPConnection("127.0.0.1", address.port, timeout=5)
    try:
        probe.connect()
    except OSError:
        return None
    finally:
        probe.close()
    return ControlClient(address)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, someone else's: the port check decides
    return True
