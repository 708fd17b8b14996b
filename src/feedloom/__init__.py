"""feedloom: a news-feed (home timeline) service with hybrid push/pull fan-out."""

__version__ = "0.1.0"
