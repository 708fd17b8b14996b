"""Settings for a command, or one line naming the FEEDLOOM_* variable that is wrong.

Exit code 2, as for a wrong option: the environment is the command's input too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.settings import Settings


def command_settings(data_dir: Path | None = None, demo: bool = False) -> Settings:
    from feedloom.settings import SettingsError, load_settings

    try:
        return load_settings(data_dir, demo)
    except SettingsError as error:
        fail(str(error), USAGE)
