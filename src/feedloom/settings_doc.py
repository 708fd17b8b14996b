"""The README's settings tables, generated from `Settings`.

`scripts/settings_table` rewrites the block between `BEGIN` and `END` in README.md;
tests/unit/test_settings_doc.py fails while the README differs from what this module
makes of `Settings`. The meaning column is each field's `description`, so a setting is
explained once, where it is defined.

Tables are grouped by what an operator tunes. `GROUPS` is the one place that says which
setting goes where: an entry is a field's name, dotted into nested groups (`feed.weights`),
and covers every setting under it. A setting no entry covers, one two entries cover, an
entry that covers nothing or a setting without a description stops the generation with
its variable's name, so a new setting cannot reach the README without a place and a
meaning.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr

from feedloom.settings import PREFIX, Settings

BEGIN = "<!-- settings:begin -->"
END = "<!-- settings:end -->"

GROUPS: Mapping[str, Sequence[str]] = {
    "Storage and connections": (
        "environment",
        "data_dir",
        "database_url",
        "database_schema",
        "database_wait_s",
        "redis_url",
        "redis_prefix",
        "redis_cluster",
        "redis_timeline_buckets",
        "redis_near_cache",
        "worker_id",
    ),
    "Fan-out and timelines": (
        "fanout",
        "reclaim_idle_s",
        "reclaim_heartbeat_s",
        "timeline_length",
        "author_timeline_length",
        "inactive_after_days",
    ),
    "Feed and ranking": ("feed",),
    "Posts, comments and media": (
        "post_max_chars",
        "comment_max_chars",
        "media_per_post",
        "media_base_url",
        "media_max_bytes",
        "idempotency_ttl_hours",
    ),
    "Media storage": ("media",),
    "Counters and moderation": (
        "counter_flush_ms",
        "counter_hot_per_flush",
        "counter_shards",
        "counter_cool_flushes",
        "moderation",
    ),
    "Accounts and sign-in": (
        "password_hash_time_cost",
        "password_hash_memory_kib",
        "password_hash_workers",
        "password_hash_queue",
        "session_idle_expiry_s",
        "username_reserved_days",
    ),
    "Rate limits": ("rate_limits",),
    "Lists, saved feeds and generators": ("lists", "saved_feeds", "generators"),
    "Apps and integration (docs/INTEGRATION.md)": ("apps", "webhooks"),
    "HTTP and security": ("secret_key", "max_body_bytes", "http"),
    "Observability": ("log_format", "log_level", "metrics_token", "admin_port", "admin_host"),
    "Memory per process (docs/OPERATIONS.md)": ("memo",),
}


class UnplacedSetting(ValueError):
    """A setting the tables cannot show: no group, two groups, or no description."""


@dataclass(frozen=True, slots=True)
class Row:
    path: str  # dotted: feed.weights.affinity
    variable: str  # FEEDLOOM_FEED__WEIGHTS__AFFINITY
    default: str
    meaning: str


def rows(model: type[BaseModel] = Settings) -> Iterator[Row]:
    """Every setting a variable sets, in definition order, nested groups walked."""
    yield from _rows(model, None, (), PREFIX)


def _rows(
    model: type[BaseModel], defaults: BaseModel | None, path: tuple[str, ...], prefix: str
) -> Iterator[Row]:
    for name, field in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        # A nested group's defaults are its parent's default instance, which may differ
        # from the group class' own field defaults.
        default = (
            getattr(defaults, name)
            if defaults is not None
            else field.get_default(call_default_factory=True)
        )
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            yield from _rows(kind, default, (*path, name), f"{variable}__")
            continue
        if not field.description:
            raise UnplacedSetting(f"{variable} has no description: give its Field one")
        dotted = ".".join((*path, name))
        yield Row(dotted, variable, render_default(name, default), field.description)


def grouped(
    model: type[BaseModel] = Settings, groups: Mapping[str, Sequence[str]] = GROUPS
) -> dict[str, list[Row]]:
    """The rows of each group in the order of its entries (a nested group's in their
    own order)."""
    tables: dict[str, list[Row]] = {title: [] for title in groups}
    used: set[str] = set()
    for row in rows(model):
        owners = [
            (title, entry)
            for title, entries in groups.items()
            for entry in entries
            if row.path == entry or row.path.startswith(f"{entry}.")
        ]
        if len(owners) != 1:
            where = " and ".join(f"{title!r} ({entry})" for title, entry in owners)
            raise UnplacedSetting(
                f"{row.variable} is in {where}: exactly one entry of GROUPS in "
                "feedloom/settings_doc.py must cover it"
                if owners
                else f"{row.variable} is in no group: add {row.path!r} to one in "
                "GROUPS (feedloom/settings_doc.py)"
            )
        tables[owners[0][0]].append(row)
        used.add(owners[0][1])
    if idle := [entry for entries in groups.values() for entry in entries if entry not in used]:
        raise UnplacedSetting(f"GROUPS names settings that do not exist: {', '.join(idle)}")
    for title, group in tables.items():
        order = {entry: index for index, entry in enumerate(groups[title])}
        group.sort(key=lambda row: order[_entry_of(row.path, order)])  # stable
    return tables


def _entry_of(path: str, entries: Mapping[str, int]) -> str:
    while path not in entries:
        path = path.rpartition(".")[0]
    return path


def render_default(name: str, value: Any) -> str:
    """What an operator would write, in backticks; `unset` for nothing or a secret, `none`
    for an empty list (some lists are JSON, some comma-separated: the meaning says)."""
    if value is None or isinstance(value, SecretStr):
        return "unset"
    if isinstance(value, list | dict) and not value:
        return "none"
    if isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, Enum):
        text = str(value.value)
    elif isinstance(value, list | dict):
        text = json.dumps(value)
    elif isinstance(value, float) and value.is_integer():
        text = str(int(value))
    else:
        text = str(value)
    return f"`{text}`{_in_words(name, value)}"


def _in_words(name: str, value: Any) -> str:
    """Large sizes and durations said the way people count them: (10 MiB), (30 days)."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return ""
    size = value * 1024 if name.endswith("_kib") else value
    if name.endswith(("_bytes", "_kib")) and size % 1024**2 == 0:
        return f" ({size // 1024**2} MiB)"
    if name.endswith(("_bytes", "_kib")) and size % 1024 == 0:
        return f" ({size // 1024} KiB)"
    if name.endswith("_s") and value >= 86_400 and value % 86_400 == 0:
        days = value // 86_400
        return f" ({days} day{'' if days == 1 else 's'})"
    return ""


def markdown(tables: Mapping[str, Sequence[Row]]) -> str:
    """The block between the markers: one table per group."""
    parts = []
    for title, group in tables.items():
        lines = [f"### {title}", "", "| variable | default | meaning |", "|---|---|---|"]
        lines += [f"| `{row.variable}` | {row.default} | {_cell(row.meaning)} |" for row in group]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")  # a bar would end the table's cell


def rewritten(readme: str, block: str) -> str:
    """The README with its generated block replaced; the markers stay."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"README.md needs the markers {BEGIN} and {END}, in that order")
    return f"{readme[: start + len(BEGIN)]}\n{block}\n{readme[end:]}"


def main(argv: Sequence[str]) -> int:
    path = Path(argv[0]) if argv else Path("README.md")
    before = path.read_text()
    after = rewritten(before, markdown(grouped()))
    if after != before:
        path.write_text(after)
    print(f"{path}: settings tables {'rewritten' if after != before else 'already current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
