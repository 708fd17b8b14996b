"""The ranked home feed: candidate pool → features → rank under a budget → re-rank →
feed session → page. See docs/RANKING.md."""
