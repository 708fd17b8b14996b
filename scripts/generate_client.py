"""Regenerate the typed Python client (clients/python, package `feedloom_client`) from
the OpenAPI document, with openapi-python-client (pinned in requirements-dev.lock).

The document is the one GET /openapi.json serves, built from the app without a server
and from the settings' defaults only: no FEEDLOOM_* variable of the caller's shell may
change the limits it shows, so the same code always gives the same client
(tests/integration/test_python_client.py regenerates it and compares).

The generator is called through its library, not its command line: its command line
pins an older typer than the service's (see requirements-dev.lock).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pydantic_settings import BaseSettings, PydanticBaseSettingsSource  # noqa: E402

from feedloom.api.app import create_app  # noqa: E402
from feedloom.settings import Settings  # noqa: E402

CONFIG = ROOT / "clients" / "generator.yaml"
OUTPUT = ROOT / "clients" / "python"


class DefaultSettings(Settings):
    """Settings from their defaults alone: the environment is not read."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def document() -> dict[str, Any]:
    schema: dict[str, Any] = create_app(DefaultSettings()).openapi()
    return schema


def generate(output: Path) -> None:
    from openapi_python_client import MetaType, generate
    from openapi_python_client.config import Config, ConfigFile

    # The post hooks run `ruff` from the PATH: the pinned one beside this interpreter.
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "openapi.json"
        source.write_text(json.dumps(document(), indent=2, sort_keys=True) + "\n")
        config = Config.from_sources(
            ConfigFile.load_from_path(CONFIG),
            MetaType.PDM,
            source,
            "utf-8",
            overwrite=True,
            output_path=output,
        )
        errors = generate(config=config)
    for error in errors:
        print(f"{error.level.name}: {error.header}\n  {error.detail}", file=sys.stderr)
    if not (output / "feedloom_client").is_dir():
        raise SystemExit(f"no client was generated in {output}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="default: clients/python")
    parser.add_argument("--document", action="store_true", help="print the document only")
    args = parser.parse_args()
    if args.document:
        print(json.dumps(document(), indent=2, sort_keys=True))
        return
    generate(args.output.resolve())


if __name__ == "__main__":
    main()
