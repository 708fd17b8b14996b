"""How many fan-out consumers per lane a worker runs (a module of its own: the CLI
shows the default without importing the worker)."""

# `feedloom worker` (Redis + PostgreSQL): while one consumer waits on its round trips,
# the others prepare their batches, so the worker, Redis and PostgreSQL work at once
# instead of in turn (docs/BENCHMARKS.md: 1 → 4 took the peers' fan-out from 106,000
# to 141,000 inserts/s; 8 was no better).
SHARED_STORE = 4
# The embedded default's worker, inside `feedloom serve`: in process there is nothing
# to wait on, and more consumers only add loop turns (419,000 → 375,000 inserts/s).
IN_PROCESS = 1
