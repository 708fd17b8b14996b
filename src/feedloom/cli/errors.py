"""How a `feedloom` command fails: one plain line on stderr, `feedloom: <reason>`.

Operators grep for that line and tests compare it, so it must not depend on the
terminal: no Rich panel, no wrapping, no traceback. Exit code 2 means the input was
wrong (click's code for usage errors), 1 that something around it was (a server that
does not answer, a file that cannot be read).

Commands raise `typer.BadParameter` for bad input, as typer intends; `OneLineErrors`,
the root group, turns that and click's own usage errors (an unknown option, a value
of the wrong type or out of range) into the same one line.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from typing import Any, NoReturn

import typer

# typer vendors click: its usage errors are typer._click's classes, not click's.
from typer._click.core import Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

USAGE = 2
# The `bench` extra (pyproject.toml), by module: what the service install leaves out.
BENCH_EXTRA = {"httpx": "httpx", "hdrh": "hdrhistogram", "matplotlib": "matplotlib"}


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"feedloom: {message}", err=True)
    raise typer.Exit(code)


def require_bench_extra(command: str, *modules: str) -> None:
    """Refuse before doing anything when `command` needs what only the `bench` extra
    installs (all of it unless `modules` says which)."""
    missing = [
        BENCH_EXTRA[module]
        for module in modules or BENCH_EXTRA
        if importlib.util.find_spec(module) is None
    ]
    if missing:
        fail(
            f"{command} needs {', '.join(missing)} (the bench extra): pip install 'feedloom[bench]'"
        )


class OneLineErrors(TyperGroup):
    """Arguments are parsed in `make_context` (the root's) and `invoke` (every
    sub-command's, and the command itself), so both are watched."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Context | None = None,
        **extra: Any,
    ) -> Context:
        with _usage_errors_in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with _usage_errors_in_one_line():
            return super().invoke(ctx)


@contextlib.contextmanager
def _usage_errors_in_one_line() -> Iterator[None]:
    try:
        yield
    except NoArgsIsHelpError:
        raise  # a group given no command: its help, as asked for
    except UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "feedloom"
        fail(f"{error.format_message()} (see {where} --help)", USAGE)
