"""`--start cluster`: a 3-master Redis Cluster of the bench's own, started and stopped
around the run (as tests/integration/test_redis_cluster.py starts one for the tests).

Ports: FEEDLOOM_BENCH_CLUSTER_PORT (default 7300) and the next two, each with its
cluster bus 10,000 above. No persistence, no replicas: the nodes live in a temporary
directory and are stopped (and the directory removed) afterwards.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import redis

MASTERS = 3
DEFAULT_FIRST_PORT = 7300


class ClusterUnavailable(RuntimeError):
    """redis-server or redis-cli missing, or the cluster did not form."""


@contextlib.contextmanager
def local_cluster(work_dir: Path) -> Iterator[str]:
    """Start the nodes, form the cluster, yield its URL (redis+cluster://...)."""
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server is None or cli is None:
        raise ClusterUnavailable("--start cluster needs redis-server and redis-cli installed")
    first = int(os.environ.get("FEEDLOOM_BENCH_CLUSTER_PORT", DEFAULT_FIRST_PORT))
    ports = [first + index for index in range(MASTERS)]
    work_dir.mkdir(parents=True, exist_ok=True)
    with (work_dir / "redis-cluster.log").open("w") as log:
        nodes = [start_node(server, port, work_dir, log) for port in ports]
        try:
            _wait_for(lambda: all(node_answers(port) for port in ports), "the redis nodes to start")
            create = [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in ports)]
            subprocess.run(
                [*create, "--cluster-replicas", "0", "--cluster-yes"],
                check=True,
                capture_output=True,
                timeout=30,
            )
            _wait_for(lambda: all(cluster_ok(port) for port in ports), "cluster_state:ok")
            yield f"redis+cluster://127.0.0.1:{ports[0]}"
        finally:
            for node in nodes:
                node.terminate()
            for node in nodes:
                try:
                    node.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    node.kill()
                    node.wait()


def start_node(server: str, port: int, work_dir: Path, log: IO[str]) -> subprocess.Popen[bytes]:
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(work_dir)]
    command += ["--cluster-enabled", "yes", "--cluster-config-file", f"nodes-{port}.conf"]
    command += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def node_answers(port: int) -> bool:
    with redis.Redis(port=port, socket_connect_timeout=1) as node:
        try:
            return bool(node.ping())
        except redis.ConnectionError:
            return False


def cluster_ok(port: int) -> bool:
    with redis.Redis(port=port) as node:
        return bool(node.cluster("INFO")["cluster_state"] == "ok")


def _wait_for(check: Callable[[], bool], what: str, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise ClusterUnavailable(f"gave up waiting for {what}")
        time.sleep(0.1)
