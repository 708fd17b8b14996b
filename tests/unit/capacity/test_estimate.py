"""The estimate's arithmetic against the figures of DESIGN.md section 2, computed by hand."""

import dataclasses
import json
import math
from pathlib import Path

import pytest
from rich.console import Console

from feedloom.capacity.estimate import (
    Assumptions,
    estimate,
    estimate_as_dict,
    load_assumptions,
    render_estimate,
)

BRIEF = estimate(Assumptions())


def test_posts_per_day_is_dau_times_posts_per_user() -> None:
    # 20 M x 0.25
    assert BRIEF.posts_per_day == 5_000_000


def test_posts_per_second_are_58_average_and_174_at_peak() -> None:
    # 5 M / 86,400 = 57.87; x 3 = 173.6
    assert BRIEF.posts_per_s_avg == pytest.approx(57.8704, abs=1e-4)
    assert round(BRIEF.posts_per_s_avg) == 58
    assert round(BRIEF.posts_per_s_peak) == 174


def test_feed_opens_are_2315_per_second_average_and_6944_at_peak() -> None:
    # 20 M x 10 / 86,400 = 2,314.8; x 3 = 6,944.4
    assert BRIEF.feed_opens_per_s_avg == pytest.approx(2314.8148, abs=1e-4)
    assert round(BRIEF.feed_opens_per_s_avg) == 2_315
    assert round(BRIEF.feed_opens_per_s_peak) == 6_944


def test_read_write_ratio_is_40_to_1() -> None:
    assert BRIEF.read_write_ratio == 40


def test_push_fan_out_is_11574_writes_per_second_average_and_34722_at_peak() -> None:
    # 5 M posts x 200 followers / 86,400 = 11,574.07; x 3 = 34,722.2
    assert BRIEF.fanout_writes_per_s_avg == pytest.approx(11_574.074, abs=1e-3)
    assert round(BRIEF.fanout_writes_per_s_peak) == 34_722


def test_hydrated_posts_at_peak_are_peak_opens_times_page_size() -> None:
    # 6,944.4 x 20 = 138,888.9
    assert round(BRIEF.hydrated_posts_per_s_peak) == 138_889


def test_timelines_take_82_gb_for_dau_and_246_gb_for_all_accounts() -> None:
    # 500 x 8 B + 100 B = 4,100 B per timeline
    assert BRIEF.timeline_bytes_per_user == 4_100
    assert BRIEF.timeline_bytes_dau == 82e9
    assert BRIEF.timeline_bytes_all == 246e9
    assert BRIEF.timeline_bytes_dau_replicated == 164e9
    assert BRIEF.timeline_bytes_all_replicated == 492e9


def test_storage_over_five_years_is_9_1_tb_of_rows_and_365_tb_of_images() -> None:
    # 5 M x 1,825 days = 9.125e9 posts; x 1 KB; x 20% x 200 KB
    assert BRIEF.post_row_bytes_total == pytest.approx(9.125e12)
    assert BRIEF.image_bytes_total == pytest.approx(365e12)


def test_feed_image_egress_is_3_7_gbit_per_second_on_average() -> None:
    # 2,314.8 opens/s x 20 posts x 20% x 50 KB x 8 bit = 3.7037 Gbit/s
    assert BRIEF.feed_image_egress_gbit_s_avg == pytest.approx(3.7037, abs=1e-4)
    assert BRIEF.feed_image_egress_gbit_s_peak == pytest.approx(11.1111, abs=1e-4)


def test_a_ten_million_follower_post_occupies_288_seconds_of_peak_fan_out() -> None:
    # 10 M / 34,722.2 writes/s = 288 s
    assert BRIEF.celebrity_fanout_seconds == pytest.approx(288)


def test_scaled_multiplies_only_dau_and_accounts() -> None:
    base = Assumptions()
    scaled = base.scaled(10)
    assert (scaled.dau, scaled.accounts) == (200_000_000, 600_000_000)
    assert dataclasses.replace(scaled, dau=base.dau, accounts=base.accounts) == base


def test_ten_times_the_users_matches_the_briefs_10x_section() -> None:
    # DESIGN.md 11b: ~350 k fan-out writes/s at peak, ~820 GB of timelines (1.6 TB replicated)
    big = estimate(Assumptions().scaled(10))
    assert round(big.fanout_writes_per_s_peak) == 347_222
    assert big.timeline_bytes_dau == 820e9
    assert big.timeline_bytes_dau_replicated == 1_640e9
    assert big.celebrity_fanout_seconds == pytest.approx(28.8)


@pytest.mark.parametrize("factor", [0, -1, math.inf, math.nan])
def test_scaled_refuses_a_factor_that_is_not_a_positive_number(factor: float) -> None:
    with pytest.raises(ValueError, match="scale factor"):
        Assumptions().scaled(factor)


def test_assumptions_refuse_negative_values_and_an_image_share_above_one() -> None:
    with pytest.raises(ValueError, match="'dau'"):
        Assumptions(dau=-1)
    with pytest.raises(ValueError, match="image_share"):
        Assumptions(image_share=1.5)


def test_zero_posts_give_infinite_ratios_instead_of_a_crash() -> None:
    quiet = estimate(Assumptions(posts_per_dau_per_day=0))
    assert quiet.read_write_ratio == math.inf
    assert quiet.celebrity_fanout_seconds == math.inf
    assert estimate_as_dict(quiet)["read_write_ratio"] == "inf"


def test_toml_overrides_the_named_keys_and_keeps_the_other_defaults(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("dau = 1_000_000\nimage_share = 0\nyears = 2\n")
    loaded = load_assumptions(path)
    assert loaded == dataclasses.replace(Assumptions(), dau=1_000_000, image_share=0.0, years=2.0)
    assert isinstance(loaded.image_share, float)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("daus = 5\n", "unknown assumption key 'daus'"),
        ("dau = true\n", "'dau' must be a number"),
        ('dau = "many"\n', "'dau' must be a number"),
        ("dau = 2.5\n", "'dau' must be a whole number"),
        ("dau = -5\n", "'dau' must be a finite number >= 0"),
        ("dau = \n", "Invalid value"),
    ],
)
def test_toml_with_a_bad_key_or_value_is_refused_with_a_clear_message(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "a.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_assumptions(path)


def test_estimate_as_dict_is_json_with_every_figure_and_the_assumptions() -> None:
    data = json.loads(json.dumps(estimate_as_dict(BRIEF), allow_nan=False))
    figures = {f.name for f in dataclasses.fields(BRIEF)}
    assert set(data) == figures
    assert data["assumptions"] == dataclasses.asdict(Assumptions())
    assert data["posts_per_day"] == 5_000_000


def test_render_estimate_shows_rounded_figures_and_the_comparison_column() -> None:
    console = Console(record=True, width=200)
    render_estimate(BRIEF, console, compare=("x10", estimate(Assumptions().scaled(10))))
    text = console.export_text()
    for expected in ("34,722", "347,222", "82.0 GB", "9.1 TB", "365.0 TB", "3.7 Gbit/s", "288 s"):
        assert expected in text
    assert "x10" in text
