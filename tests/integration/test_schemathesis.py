"""A bounded schemathesis run with every check (`--checks all`) over the OpenAPI of a real
`feedloom serve`, on the embedded default and on PostgreSQL + Redis, from a fixed seed
with a few cases per operation: no server error, no response the document does not
promise (status, content type, headers, body schema), every request the document calls
invalid refused, every request it calls valid accepted (the patterns of IDs, cursors
and texts are the server's own checks: domain/patterns.py), and a created resource
there to be read.

One setting of the checks: a well-formed ranked cursor whose feed session is gone
answers 410 Gone, a refusal of the same kind as 404 for a well-formed ID of nothing;
schemathesis counts 404 and 409 among the answers to valid data, so 410 is added.
Invalid data may be refused with 413 as well: a body past FEEDLOOM_MAX_BODY_BYTES is,
before anything reads it (schemathesis makes long arrays of long strings).

Two operations take valid-looking data that only the server's state can refuse, and
the document cannot say so:
- POST /v1/generators: a URI of the right form whose host does not resolve, or
  resolves to an address feedloom may not call, is 422 (known only by asking DNS).
- GET /v1/search: a well-formed cursor of another `type` or `order` is 400 (OpenAPI
  cannot tie a parameter's form to another parameter's value).

Left out, on purpose:
- operations that end the run's own session or account: the rest would be 401s.
- the SSE stream, which answers each case for as long as the client listens (its
  statuses are provoked in tests/api/test_openapi.py, its events in test_streams.py).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.integration.processes import BACKENDS, backend_env, fleet
from tests.world import PASSWORD

pytestmark = pytest.mark.slow

SEED = 20261201
# Per operation and phase; the coverage phase's boundary cases come on top. Wider runs
# (`--max-examples 200`, other seeds) are for hunting, by hand.
CASES_PER_OPERATION = 5
RUN_TIMEOUT_S = 900  # about a minute on an idle machine, far more on a loaded one
# Left out (see above); excluding a name no operation has is harmless, so operations
# that would end the run's session are listed before they exist.
SPARED = (
    "DELETE /v1/sessions/current",
    "DELETE /v1/sessions",
    "DELETE /v1/sessions/{session_id}",
    "DELETE /v1/me",
    "PUT /v1/me/password",
    "GET /v1/streams/home",
)
# The same cases every run (and no time spent shrinking one that fails: the report
# names it); the methods a path does not serve are probed with one of them.
CONFIG = """\
[generation]
deterministic = true
no-shrink = true

[phases.coverage]
unexpected-methods = ["TRACE"]

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "410", "429", "5xx"]

[checks.negative_data_rejection]
expected-statuses = [
  "400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"
]

[[operations]]
include-name = "POST /v1/generators"
checks.positive_data_acceptance.expected-statuses = [
  "2xx", "401", "404", "409", "422", "429", "5xx"
]

[[operations]]
include-name = "GET /v1/search"
checks.positive_data_acceptance.expected-statuses = [
  "2xx", "400", "401", "404", "409", "422", "429", "5xx"
]
"""


async def signed_in(url: str) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        account = {"username": "fuzzer", "password": PASSWORD, "display_name": "Fuzzer"}
        assert (await client.post("/v1/accounts", json=account)).status_code == 201
        body = {"username": "fuzzer", "password": PASSWORD}
        session = await client.post("/v1/sessions", json=body)
        assert session.status_code == 201, session.text
        token: str = session.json()["token"]
        return token


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_bounded_schemathesis_run_finds_no_server_error_and_no_contract_mismatch(
    backend: str, tmp_path: Path
) -> None:
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    async with backend_env(backend, tmp_path) as env:
        with fleet(env, tmp_path) as processes:
            server = processes.api("api", worker_id=1)
            await processes.wait_ready()
            assert server.url is not None
            token = await signed_in(server.url)
            command = [
                *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(config)),
                *("run", f"{server.url}/openapi.json", "--checks", "all"),
                *("--seed", str(SEED), "--max-examples", str(CASES_PER_OPERATION)),
                *("--workers", "1", "--request-timeout", "30"),
                *("--header", f"Authorization: Bearer {token}"),
                *(arg for name in SPARED for arg in ("--exclude-name", name)),
            ]
            run = await asyncio.to_thread(
                subprocess.run,
                command,
                cwd=tmp_path,  # its .hypothesis database and reports stay in the test's dir
                env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"},
                capture_output=True,
                text=True,
                timeout=RUN_TIMEOUT_S,
            )
    # The failures come first in the message (the warnings and summary after them are
    # long); the whole report stays beside the test's config.
    (tmp_path / "report.txt").write_text(run.stdout)
    failures = run.stdout[run.stdout.find("FAILURES") :]
    assert run.returncode == 0, f"{failures[:20_000]}\n{run.stderr[-2_000:]}\n{processes.tails()}"
