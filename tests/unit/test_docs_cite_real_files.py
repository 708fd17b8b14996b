"""The docs cite only files that exist: every relative link and every `path` in
backticks that names a file of ours (README.md and docs/*.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# `src/feedloom/x.py`, `write/fan_out.py`, `tests/...`, `ops/...`, `DESIGN.md`, `scripts/check`
CODE = re.compile(r"`([A-Za-z0-9_./-]+\.(?:py|md|yml|yaml|json|toml|lock|service|target)"
                  r"|(?:scripts|ops|tests|src|docs)/[A-Za-z0-9_./@-]+)`")  # fmt: skip
# Where a short path is looked up: the repository, the package, the docs.
BASES = [ROOT, ROOT / "src" / "feedloom", ROOT / "docs", ROOT / "src"]


def cited(doc: Path) -> list[str]:
    text = doc.read_text()
    links = [target for target in LINK.findall(text) if "://" not in target]
    # A bare file name in prose ("REDIS.md") is a citation as much as a link is.
    bare = re.findall(r"(?<![\w/`.-])([A-Z][A-Z_]+\.md)\b", text)
    return [*links, *CODE.findall(text), *bare]


def exists(path: str, doc: Path) -> bool:
    clean = path.split("::")[0].rstrip("/")
    if "*" in clean or "<" in clean:
        return True  # a pattern, not a file
    return any((base / clean).exists() for base in [doc.parent, *BASES])


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_file_a_doc_cites_exists(doc: Path) -> None:
    missing = sorted({path for path in cited(doc) if not exists(path, doc)})
    assert missing == []
