"""No private API of redis-py or the standard library, and a Redis wire walled in.

A private module or name (`redis._parsers`, `asyncio.tasks._enter_task`) may change in
any release without notice: feedloom uses none (docs/REDIS.md). (cli/errors.py takes
click's usage errors from typer, which vendors click under `typer._click` and exports
only some of its names.) And the Redis wire
(adapters/redis/wire/) imports nothing of feedloom outside itself, so the port
adapters depend on it and never the other way round."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import feedloom

SOURCE = Path(feedloom.__file__).parent
WIRE = SOURCE / "adapters" / "redis" / "wire"


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, imported names) for each import of a file."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module, [alias.name for alias in node.names]


def _private(module: str, names: list[str]) -> bool:
    """Of redis-py or the standard library, and private."""
    top = module.split(".")[0]
    if top != "redis" and (top not in sys.stdlib_module_names or top == "__future__"):
        return False
    parts = module.split(".")
    return any(part.startswith("_") for part in parts) or any(
        name.startswith("_") and not name.startswith("__") for name in names
    )


def test_no_module_imports_a_private_module_or_name_of_redis_or_the_standard_library() -> None:
    found = [
        f"{path.relative_to(SOURCE)}:{line}: {module} {names}"
        for path in sorted(SOURCE.rglob("*.py"))
        for line, module, names in _imports(path)
        if _private(module, names)
    ]
    assert found == []


def test_the_private_import_check_sees_what_it_must() -> None:
    assert _private("redis._parsers.base", ["BaseParser"])
    assert _private("asyncio.tasks", ["_enter_task"])
    assert not _private("redis.exceptions", ["ResponseError"])
    assert _private("hiredis", []) is False and _private("redis.asyncio", ["Redis"]) is False
    assert not _private("feedloom.adapters.redis.wire._x", [])


def test_the_redis_wire_imports_nothing_of_feedloom_outside_itself() -> None:
    wire = "feedloom.adapters.redis.wire"
    found = [
        f"{path.relative_to(SOURCE)}:{line}: {module}"
        for path in sorted(WIRE.rglob("*.py"))
        for line, module, _ in _imports(path)
        if module.split(".")[0] == "feedloom" and not module.startswith(wire)
    ]
    assert found == []
