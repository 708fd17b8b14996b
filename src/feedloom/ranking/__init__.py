"""Ranking for the ranked home feed (DESIGN section 8): pure scoring, ordering and re-ranking.

No I/O and no framework imports: callers pass candidates with their features and `now`.
"""

from feedloom.ranking.ordering import rank
from feedloom.ranking.score import Candidate, ScoreBreakdown, Weights, explain_score, score

__all__ = ["Candidate", "ScoreBreakdown", "Weights", "explain_score", "rank", "score"]
