"""Demo data for `feedloom serve`: people, posts and pictures (demo/seed.py)."""

from feedloom.demo.seed import (
    DEMO_PASSWORD,
    DEMO_USER,
    DEMO_USERS,
    DemoSeeder,
    demo_running,
    demo_seeder,
    run_ticker,
)
from feedloom.demo.texts import demo_reply, demo_text

__all__ = [
    "DEMO_PASSWORD",
    "DEMO_USER",
    "DEMO_USERS",
    "DemoSeeder",
    "demo_reply",
    "demo_running",
    "demo_seeder",
    "demo_text",
    "run_ticker",
]
