"""The server `feedloom serve` runs sheds what a reverse proxy would: oversized heads,
slow heads (slowloris), stalled bodies, idle kept-alive connections, and connections
past the cap. Each is seen from a raw socket against a real started server.

Timeouts are shrunk to one second on one server; every wait for a close is bounded by
WAIT_S, far above that, so a loaded machine is slow, never wrong. Without the limits a
connection stays open and the bounded wait fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.processes import fleet
from tests.integration.raw_http import WAIT_S, connect, head, read_answer


def started(tmp: Path, **http: str) -> Iterator[str]:
    env = {"FEEDLOOM_DATA_DIR": str(tmp)}
    env |= {f"FEEDLOOM_HTTP__{name.upper()}": value for name, value in http.items()}
    with fleet(env, tmp) as processes:
        server = processes.api("api", worker_id=1)
        asyncio.run(processes.wait_ready())
        assert server.url is not None
        yield server.url


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Default head size (16 KiB), one-second timeouts."""
    yield from started(
        tmp_path_factory.mktemp("quick"), header_timeout_s="1", body_timeout_s="1", keep_alive_s="1"
    )


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Three connections at most, nothing timed out during a test, no access log."""
    yield from started(
        tmp_path_factory.mktemp("capped"),
        max_connections="3",
        header_timeout_s="120",
        keep_alive_s="120",
        access_log="false",
    )


def closed_within(sock: socket.socket, seconds: float = WAIT_S) -> bool:
    """True once the server closed the connection (EOF or reset), reading what it says."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], deadline - time.monotonic())
        if readable:
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionResetError:
                return True
    return False


def test_a_head_up_to_16_kib_is_served_and_a_larger_one_is_a_431(quick: str) -> None:
    with connect(quick) as fits:
        fits.sendall(head("/healthz", "X-Padding: " + "a" * 15_000))
        assert read_answer(fits).status == 200
    with connect(quick) as huge:
        huge.sendall(head("/healthz", "X-Padding: " + "a" * 20_000))
        answer = read_answer(huge)
        assert answer.status == 431
        assert answer.headers["connection"] == "close"
        assert answer.problem()["type"] == "https://feedloom.dev/problems/headers-too-large"
        assert closed_within(huge)


def test_a_connection_that_never_sends_a_request_is_closed_with_a_408(quick: str) -> None:
    with connect(quick) as idle:
        answer = read_answer(idle)
        assert answer.status == 408 and answer.problem()["status"] == 408
        assert closed_within(idle)


def test_a_head_that_trickles_in_is_cut_off_at_its_deadline(quick: str) -> None:
    """Slowloris: a byte at a time never resets the head's deadline."""
    with connect(quick) as slow:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: feedloom\r\n")
        deadline = time.monotonic() + WAIT_S
        cut = False
        while not cut and time.monotonic() < deadline:
            time.sleep(0.2)
            try:
                slow.sendall(b"X-a: b\r\n")
            except (BrokenPipeError, ConnectionResetError):
                cut = True
            cut = cut or closed_within(slow, 0)
        assert cut, "a trickling head was held open"


def test_a_stalled_body_is_closed_with_a_408(quick: str) -> None:
    with connect(quick) as stalled:
        stalled.sendall(
            head(
                "/v1/accounts",
                "Content-Type: application/json",
                "Content-Length: 100",
                method="POST",
            )
            + b'{"user'
        )
        answer = read_answer(stalled)
        assert answer.status == 408
        assert "body" in str(answer.problem()["detail"])
        assert closed_within(stalled)


def test_an_idle_kept_alive_connection_is_closed_after_its_timeout(quick: str, capped: str) -> None:
    with connect(quick) as short, connect(capped) as long:
        for sock in (short, long):
            sock.sendall(head())
            answer = read_answer(sock)
            assert answer.status == 200 and answer.headers.get("connection") != "close"
        assert closed_within(short)  # keep_alive_s=1
        assert not closed_within(long, 2.0)  # keep_alive_s=120: the setting is what decides


def test_what_the_parser_cannot_read_is_a_400_problem(quick: str) -> None:
    with connect(quick) as garbage:
        garbage.sendall(b"THIS IS NOT HTTP\r\n\r\n")
        answer = read_answer(garbage)
        assert answer.status == 400 and answer.problem()["status"] == 400


def kept_alive(url: str) -> socket.socket:
    """A connection the server has accepted and counts (it answered on it)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        sock = connect(url)
        sock.sendall(head())
        with contextlib.suppress(AssertionError, ConnectionResetError):
            if read_answer(sock).status == 200:
                return sock
        sock.close()  # a connection closed a moment ago may still be counted
        assert time.monotonic() < deadline, "no connection slot freed up"
        time.sleep(0.2)


def test_connections_past_the_cap_are_answered_503_until_one_closes(capped: str) -> None:
    held = [kept_alive(capped) for _ in range(3)]
    try:
        with connect(capped) as extra:
            answer = read_answer(extra)
            assert answer.status == 503
            assert answer.headers["retry-after"] == "1"
            assert "at most 3 connections" in str(answer.problem()["detail"])
            assert closed_within(extra)
        held.pop().close()
        kept_alive(capped).close()  # a freed slot is usable again
    finally:
        for sock in held:
            sock.close()


def test_the_access_log_can_be_turned_off(
    quick: str, capped: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    for url in (quick, capped):
        with connect(url) as sock:
            sock.sendall(head("/healthz?probe=access-log"))
            assert read_answer(sock).status == 200
    logs = {
        name: (tmp_path_factory.getbasetemp() / f"{name}0" / "api.log")
        for name in ("quick", "capped")
    }
    deadline = time.monotonic() + WAIT_S
    while "probe=access-log" not in logs["quick"].read_text(errors="replace"):
        assert time.monotonic() < deadline, "the default server logged no access line"
        time.sleep(0.1)
    assert "probe=access-log" not in logs["capped"].read_text(errors="replace")
