"""Spike detection compares this hour with the account's own last day."""

from __future__ import annotations

from feedloom.domain.spikes import is_spike, zscore


def test_a_steady_account_is_no_spike_however_busy() -> None:
    assert not is_spike(510, [500, 490, 505, 520, 480, 515])


def test_a_quiet_account_suddenly_busy_is_a_spike() -> None:
    assert is_spike(300, [2, 3, 1, 4, 2, 3])


def test_a_handful_is_never_a_spike() -> None:
    assert zscore(15, [0] * 24) == 15 and not is_spike(15, [0] * 24)
