"""Rate limits lifted for tests that sign up and write a lot from one address."""

from __future__ import annotations

from feedloom.settings import RateLimitSettings


def lifted_rate_limits() -> RateLimitSettings:
    """Out of the way of tests that sign up and write a lot from one address (the
    tests of the limits tighten the one they test)."""
    rules = RateLimitSettings().rules()
    return RateLimitSettings(**{name: "100000/minute" for name in rules}, young_account_hours=0)


def lifted_rate_limit_env() -> dict[str, str]:
    """The same, as FEEDLOOM_* variables for a process the test starts."""
    lifted = lifted_rate_limits()
    env = {
        f"FEEDLOOM_RATE_LIMITS__{name.upper()}": getattr(lifted, name) for name in lifted.rules()
    }
    return {**env, "FEEDLOOM_RATE_LIMITS__YOUNG_ACCOUNT_HOURS": "0"}
