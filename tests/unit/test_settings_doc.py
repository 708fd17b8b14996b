"""The README's settings tables are what `Settings` defines: every setting in exactly one
group, with its variable, default and meaning (feedloom/settings_doc.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, Field, SecretStr

from feedloom import settings_doc
from feedloom.settings import known_variables
from feedloom.settings_doc import BEGIN, END, UnplacedSetting, grouped, markdown, rewritten

README = Path(__file__).parents[2] / "README.md"


def test_the_readme_lists_every_setting_as_settings_defines_it() -> None:
    text = README.read_text()
    current = text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip("\n")
    assert current == markdown(grouped()), (
        "README.md's settings tables differ from feedloom.settings.Settings (a setting was "
        "added or changed, maybe by someone else's branch): run scripts/settings_table and "
        "commit the README it writes"
    )


def test_every_setting_a_variable_sets_is_in_one_table() -> None:
    known = set(known_variables())
    # A nested group is also one variable (JSON); its settings have rows of their own.
    groups = {name for name in known if any(o.startswith(f"{name}__") for o in known)}
    shown = [row.variable for group in grouped().values() for row in group]
    assert sorted(shown) == sorted(known - groups)


class Limits(BaseModel):
    burst: int = Field(5, description="requests at once")
    window_s: int = Field(172_800, description="the window")


class Example(BaseModel):
    url: str | None = Field(None, description="where")
    token: SecretStr | None = Field(None, description="who")
    upload_bytes: int = Field(10 * 1024 * 1024, description="largest upload")
    ratio: float = Field(2.0, description="how much")
    origins: list[str] = Field(default_factory=list, description="JSON list")
    debug: bool = Field(False, description="say more")
    limits: Limits = Limits(burst=7)


def test_a_setting_in_no_group_is_refused_with_its_variable() -> None:
    with pytest.raises(UnplacedSetting, match="FEEDLOOM_DEBUG is in no group: add 'debug'"):
        grouped(Example, {"All": ("url", "token", "upload_bytes", "ratio", "origins", "limits")})


def test_a_setting_in_two_groups_is_refused() -> None:
    groups = {"One": ("url", "token", "upload_bytes", "ratio", "origins", "debug", "limits"),
              "Two": ("limits.burst",)}  # fmt: skip
    with pytest.raises(UnplacedSetting, match=r"FEEDLOOM_LIMITS__BURST is in 'One'.* and 'Two'"):
        grouped(Example, groups)


def test_a_group_naming_no_setting_and_a_setting_without_meaning_are_refused() -> None:
    everything = ("url", "token", "upload_bytes", "ratio", "origins", "debug", "limits")
    with pytest.raises(UnplacedSetting, match="do not exist: proxy"):
        grouped(Example, {"All": (*everything, "proxy")})

    class Unexplained(BaseModel):
        quiet: int = 3

    with pytest.raises(UnplacedSetting, match="FEEDLOOM_QUIET has no description"):
        grouped(Unexplained, {"All": ("quiet",)})


def test_rows_show_variables_readable_defaults_and_meanings_in_the_groups_order() -> None:
    tables = grouped(
        Example,
        {"Limits": ("limits.window_s", "limits.burst"),
         "Rest": ("debug", "url", "token", "upload_bytes", "ratio", "origins")},
    )  # fmt: skip
    text = markdown(tables)
    assert text.splitlines()[:6] == [
        "### Limits",
        "",
        "| variable | default | meaning |",
        "|---|---|---|",
        "| `FEEDLOOM_LIMITS__WINDOW_S` | `172800` (2 days) | the window |",
        "| `FEEDLOOM_LIMITS__BURST` | `7` | requests at once |",  # the parent's default
    ]
    rest = text.split("### Rest")[1].splitlines()[4:]
    assert rest == [
        "| `FEEDLOOM_DEBUG` | `false` | say more |",
        "| `FEEDLOOM_URL` | unset | where |",
        "| `FEEDLOOM_TOKEN` | unset | who |",
        "| `FEEDLOOM_UPLOAD_BYTES` | `10485760` (10 MiB) | largest upload |",
        "| `FEEDLOOM_RATIO` | `2` | how much |",
        "| `FEEDLOOM_ORIGINS` | none | JSON list |",
    ]


def test_the_script_replaces_only_the_block_between_the_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n\n{BEGIN}\n| stale |\n{END}\n\nafter\n")
    assert settings_doc.main([str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith(f"# x\n\nbefore\n\n{BEGIN}\n### Storage and connections\n")
    assert text.endswith(f"{END}\n\nafter\n") and "| stale |" not in text
    assert rewritten(text, markdown(grouped())) == text  # a second run changes nothing


def test_a_readme_without_the_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="needs the markers"):
        rewritten("# no markers here\n", "| x |")
