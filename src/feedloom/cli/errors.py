"""How a `feedloom` command fails: one plain line on stderr, `feedloom: <reason>`.

Operators grep for that line and tests compare it, so it must not depend on the
terminal: no Rich panel, no wrapping, no traceback.
"""

from __future__ import annotations

from typing import NoReturn

import typer


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"feedloom: {message}", err=True)
    raise typer.Exit(code)
