"""Start feedloom as subprocesses for one benchmark run, and stop them afterwards.

`python -m feedloom serve --no-demo --inline-worker` on a free 127.0.0.1 port, with
the run's FEEDLOOM_* settings. The API process runs the fan-out worker itself, on every
store: the fan-out figures (timeline writes, lag) are read from its `/metrics`, and a
separate `feedloom worker` process has no metrics endpoint. Output goes to a log file
in the run's work directory; only the process started here is ever signalled.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx

from feedloom.bench.stores import child_environment

READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
LOG_TAIL_CHARS = 2_000


class ServerFailed(RuntimeError):
    """A server process exited or never became ready (the message ends with its log)."""


@dataclass(frozen=True)
class RunningServer:
    url: str
    api_pid: int
    log_dir: Path

    def api_rss_mb(self) -> float | None:
        """Resident memory of the API process (where embedded timelines live)."""
        try:
            status = Path(f"/proc/{self.api_pid}/status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return None

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the API process has used so far."""
        try:
            fields = Path(f"/proc/{self.api_pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        # Fields 14 and 15 of /proc/PID/stat (utime, stime), counted after the ")".
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def running_server(env: Mapping[str, str], log_dir: Path) -> AsyncIterator[RunningServer]:
    port = free_port()
    serve = [sys.executable, "-m", "feedloom", "serve", "--no-demo", "--inline-worker"]
    commands = {"api": [*serve, "--host", "127.0.0.1", "--port", str(port)]}
    processes: dict[str, subprocess.Popen[bytes]] = {}
    try:
        await asyncio.to_thread(_start, commands, env, log_dir, port, processes)
        url = f"http://127.0.0.1:{port}"
        await _wait_ready(url, processes, log_dir, port)
        yield RunningServer(url, processes["api"].pid, log_dir)
    finally:
        await asyncio.to_thread(_stop, list(processes.values()))


async def _wait_ready(
    url: str, processes: Mapping[str, subprocess.Popen[bytes]], log_dir: Path, port: int
) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    async with httpx.AsyncClient(base_url=url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            for name, process in processes.items():
                if process.poll() is not None:
                    raise ServerFailed(
                        f"{name} exited with {process.returncode}:\n{_tail(log_dir, name, port)}"
                    )
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get("/readyz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise ServerFailed(f"not ready after {READY_TIMEOUT_S:.0f} s:\n{_tail(log_dir, 'api', port)}")


def _start(
    commands: Mapping[str, list[str]],
    env: Mapping[str, str],
    log_dir: Path,
    port: int,
    started: dict[str, subprocess.Popen[bytes]],
) -> None:
    """Fills `started` as it goes, so a failure half-way still stops what did start."""
    log_dir.mkdir(parents=True, exist_ok=True)
    for name, command in commands.items():
        with (log_dir / f"{name}-{port}.log").open("wb") as log:
            started[name] = subprocess.Popen(
                command, env=child_environment(env), stdout=log, stderr=subprocess.STDOUT
            )


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGINT first (a graceful shutdown acknowledges in-flight work), then kill."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
    for process in processes:
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _tail(log_dir: Path, name: str, port: int) -> str:
    try:
        return (log_dir / f"{name}-{port}.log").read_text(errors="replace")[-LOG_TAIL_CHARS:]
    except OSError:
        return "(no log)"
