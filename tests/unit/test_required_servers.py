"""The test suite's rule for PostgreSQL and Redis: skip when unreachable locally, fail
in CI, where a missing service must never pass as green."""

from __future__ import annotations

import pytest

from tests.servers import unavailable


def test_an_unreachable_server_fails_the_test_when_ci_is_true(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="required when CI=true"):
        unavailable("PostgreSQL", "connection refused")


@pytest.mark.parametrize("ci", ["", "false"])
def test_an_unreachable_server_skips_the_test_locally(
    monkeypatch: pytest.MonkeyPatch, ci: str
) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match="connection refused"):
        unavailable("Redis", "connection refused")
