"""`feedloom apps create | list | rotate | revoke` on the embedded default, in processes
of their own, with no server running: the `--json` shapes a script reads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def cli(data_dir: Path, *args: str, expect: int = 0, group: str = "apps") -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDLOOM_")}
    done = subprocess.run(
        [sys.executable, "-m", "feedloom", group, *args, "--data-dir", str(data_dir)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == expect, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_create_list_rotate_revoke_print_the_documented_json(tmp_path: Path) -> None:
    made = json.loads(cli(tmp_path, "create", "backend", "--scopes", "users:write", "--json"))
    assert set(made) == {"app_id", "api_key", "token_secret"}
    assert made["api_key"].startswith("fl_sk_") and made["app_id"].isdigit()
    listed = json.loads(cli(tmp_path, "list", "--json"))
    assert [(a["app_id"], a["scopes"], a["revoked_at"]) for a in listed] == [
        (made["app_id"], ["users:write"], None)
    ]
    assert made["api_key"] not in json.dumps(listed)
    rotated = json.loads(cli(tmp_path, "rotate", made["app_id"], "--json"))
    assert set(rotated) == {"api_key"} and rotated["api_key"] != made["api_key"]
    revoked = json.loads(cli(tmp_path, "revoke", made["app_id"], "--json"))
    assert revoked["revoked_at"] is not None
    assert "no live app" in cli(tmp_path, "rotate", made["app_id"], expect=1)


def test_bad_scopes_and_a_key_pair_without_keys_are_refused(tmp_path: Path) -> None:
    assert "unknown scope" in cli(tmp_path, "create", "x", "--scopes", "everything", expect=2)
    out = cli(tmp_path, "create", "x", "--scopes", "admin", "--algorithm", "EdDSA", expect=2)
    assert "--jwks-file" in out and "--jwks-url" in out
    url = "https://keys.example/jwks.json"
    both = ("--jwks-url", url, "--jwks-file", str(tmp_path / "keys.json"))
    assert "--jwks-url" in cli(tmp_path, "create", "x", "--scopes", "admin", *both, expect=2)


def test_a_key_pair_app_may_name_its_jwks_url(tmp_path: Path) -> None:
    url = "https://keys.example/.well-known/jwks.json"
    args = ("--scopes", "users:write", "--algorithm", "RS256", "--jwks-url", url, "--json")
    made = json.loads(cli(tmp_path, "create", "keys-by-url", *args))
    [listed] = json.loads(cli(tmp_path, "list", "--json"))
    assert listed["app_id"] == made["app_id"] and listed["jwks_url"] == url
    assert listed["algorithms"] == ["RS256"]


def feedloom_webhooks(data_dir: Path, *args: str, expect: int = 0) -> str:
    return cli(data_dir, *args, expect=expect, group="webhooks")


def test_webhooks_list_show_and_replay_answer_for_an_empty_dead_letter(tmp_path: Path) -> None:
    assert "no dead deliveries" in feedloom_webhooks(tmp_path, "list")
    assert "no delivery 12" in feedloom_webhooks(tmp_path, "show", "msg_12", expect=1)
    assert "no dead delivery 12" in feedloom_webhooks(tmp_path, "replay", "12", expect=1)
