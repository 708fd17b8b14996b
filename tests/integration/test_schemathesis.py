"""A bounded schemathesis run over the OpenAPI of a real `feedloom serve` (embedded
default, a fixed seed, a fixed number of cases per operation): no server error and no
response the document does not promise (status, content type, headers, body schema),
and every request the schema calls invalid is refused.

Left out, on purpose:
- `positive_data_acceptance`: cursors are opaque and IDs are decimal strings below
  2^63; JSON Schema cannot say which strings those are, so a schema-valid "cursor"
  of zeros is rightly a 400 (tests/api/test_bad_input_property.py holds that class).
- `ensure_resource_availability`: a create retried with an Idempotency-Key the run
  used before replays the first answer, even when that post was deleted since (the
  key's promise), so a "just created" post may rightly be 404.
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

from tests.integration.processes import fleet
from tests.world import PASSWORD

SEED = 20261201
CASES_PER_OPERATION = 50
RUN_TIMEOUT_S = 540
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


def signed_in(url: str) -> str:
    with httpx.Client(base_url=url, timeout=30) as client:
        account = {"username": "fuzzer", "password": PASSWORD, "display_name": "Fuzzer"}
        assert client.post("/v1/accounts", json=account).status_code == 201
        session = client.post("/v1/sessions", json={"username": "fuzzer", "password": PASSWORD})
        assert session.status_code == 201, session.text
        token: str = session.json()["token"]
        return token


def test_a_bounded_schemathesis_run_finds_no_server_error_and_no_contract_mismatch(
    tmp_path: Path,
) -> None:
    env = {
        "FEEDLOOM_DATA_DIR": str(tmp_path / "data"),
        "FEEDLOOM_PASSWORD_HASH_TIME_COST": "1",
        "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": "256",
        "FEEDLOOM_RATE_LIMITS__POSTS": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__COMMENTS": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__LIKES": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__FOLLOWS": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__MEDIA": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_IN_PER_ADDRESS": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_IN_PER_ACCOUNT": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_IN_PER_ACCOUNT_ADDRESS": "100000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_UP_PER_ADDRESS": "100000/minute",
    }
    with fleet(env, tmp_path) as processes:
        server = processes.api("api", worker_id=1)
        asyncio.run(processes.wait_ready())
        assert server.url is not None
        token = signed_in(server.url)
        command = [
            *(sys.executable, "-m", "schemathesis.cli", "run", f"{server.url}/openapi.json"),
            *("--seed", str(SEED), "--max-examples", str(CASES_PER_OPERATION)),
            *("--workers", "1", "--request-timeout", "30"),
            *("--header", f"Authorization: Bearer {token}"),
            *("--exclude-checks", "positive_data_acceptance,ensure_resource_availability"),
            *(arg for name in SPARED for arg in ("--exclude-name", name)),
        ]
        run = subprocess.run(
            command,
            cwd=tmp_path,  # its .hypothesis database and reports stay in the test's dir
            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"},
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
        )
    assert run.returncode == 0, (
        f"{run.stdout[-12_000:]}\n{run.stderr[-2_000:]}\n{processes.tails()}"
    )
