"""No deployment signs with a key anyone could know: the embedded default makes its own,
anything else must be given one."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from feedloom.bootstrap import open_feedloom
from feedloom.bootstrap.secret_key import kept_secret_key, secret_key
from feedloom.settings import Settings, SettingsError
from tests.images import png


def test_the_embedded_default_makes_a_random_key_on_first_start_and_keeps_it(
    tmp_path: Path,
) -> None:
    first = secret_key(Settings(data_dir=tmp_path / "one"))
    assert len(first) >= 32
    kept = tmp_path / "one" / "secret_key"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert secret_key(Settings(data_dir=tmp_path / "one")) == first  # a restart keeps it
    assert secret_key(Settings(data_dir=tmp_path / "two")) != first  # never a shared default
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["secret_key"]  # no draft left


def test_a_key_that_is_set_wins_and_no_file_is_made(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, secret_key=SecretStr("s" * 32))
    assert secret_key(settings) == "s" * 32
    assert not (tmp_path / "secret_key").exists()


def test_a_key_file_others_can_read_or_that_holds_too_little_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    kept_secret_key(path)
    path.chmod(0o644)
    with pytest.raises(SettingsError, match="readable by other users: chmod 600"):
        kept_secret_key(path)
    path.write_text("short\n")
    path.chmod(0o600)
    with pytest.raises(SettingsError, match="holds no usable key"):
        kept_secret_key(path)


@pytest.mark.parametrize(
    "backend",
    [
        {"redis_url": "redis://127.0.0.1:6379/0"},
        {"database_url": "postgresql://postgres@127.0.0.1/test"},
    ],
)
def test_anything_but_the_embedded_default_refuses_to_run_without_a_key(
    backend: dict[str, str],
) -> None:
    with pytest.raises(SettingsError, match="FEEDLOOM_SECRET_KEY is required"):
        secret_key(Settings(**backend))  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"32\+ random characters"):
        Settings(secret_key="x" * 31, **backend)  # type: ignore[arg-type]
    for placeholder in ("change-me", "REPLACE-ME-WITH-A-LONG-RANDOM-STRING-PLEASE"):
        with pytest.raises(ValidationError, match="still a placeholder"):
            Settings(secret_key=placeholder, **backend)  # type: ignore[arg-type]


async def test_a_started_service_signs_with_the_key_it_keeps(tmp_path: Path) -> None:
    settings = Settings(environment="test", data_dir=tmp_path, password_hash_memory_kib=256)
    async with open_feedloom(settings) as feedloom:
        ticket = await feedloom.services.media.request_upload(1, "image/png", 1, 1)
    assert (tmp_path / "secret_key").exists()
    async with open_feedloom(settings) as feedloom:  # a restart: the same key
        _, query = ticket.upload_url.split("?")
        params = dict(part.split("=") for part in query.split("&"))
        expires, signature = int(params["expires"]), params["signature"]
        uploads = feedloom.services.media
        await uploads.store_upload(1, ticket.media.id, expires, signature, png(2, 2))
        assert await uploads.served(ticket.media.url.rsplit("/", 1)[-1]) is not None
