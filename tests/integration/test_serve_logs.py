"""What `feedloom serve` writes on start: with JSON logging every line is a JSON object,
the first ("feedloom on http://…") too, and "Started server process" is said once
though the embedded default runs a control server beside the API."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.integration.processes import fleet, free_port


async def test_a_json_logging_server_writes_only_json_lines_and_one_started_line(
    tmp_path: Path,
) -> None:
    env = {"FEEDLOOM_LOG_FORMAT": "json", "FEEDLOOM_DATA_DIR": str(tmp_path / "data")}
    port = free_port()
    with fleet(env, tmp_path) as running:
        api = running.start(
            "api", "serve", "--port", str(port), worker_id=1, url=f"http://127.0.0.1:{port}"
        )
        await running.wait_ready()
    lines = api.log.read_text().splitlines()

    messages = [orjson.loads(line)["message"] for line in lines]  # fails on a plain line
    assert messages[0].startswith(f"feedloom on http://127.0.0.1:{port}")
    assert "demo login (web and API): username demo, password demo-password" in messages
    assert sum(message.startswith("Started server process") for message in messages) == 1
