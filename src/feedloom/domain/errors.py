"""Domain errors. They know nothing of HTTP: api/problems.py maps them to statuses."""

from __future__ import annotations


class FeedloomError(Exception):
    """Base of every error a use case raises on purpose."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(FeedloomError):
    """The request is well-formed but its values are not acceptable."""


class NotShareable(InvalidInput):
    """A post that may not be reposted or quoted (it is not public)."""


class BadCursor(FeedloomError):
    """A cursor that this service did not issue, or that was damaged."""


class NotFound(FeedloomError):
    pass


class Forbidden(FeedloomError):
    pass


class Unauthorized(FeedloomError):
    pass


class Conflict(FeedloomError):
    pass


class IdempotencyMismatch(FeedloomError):
    """The same Idempotency-Key was sent with a different request body."""


class Unavailable(FeedloomError):
    """A part the request needs is unreachable; the same request may be retried."""

    def __init__(self, detail: str, retry_after_s: int = 1) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s


class RateLimited(FeedloomError):
    """Too many requests; `limit` (with `remaining` and `reset_s`) when a rate limit's
    window is full, so the response can say so in RateLimit-* headers."""

    def __init__(
        self, detail: str, retry_after_s: int, limit: int | None = None, remaining: int = 0
    ) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s
        self.limit, self.remaining = limit, remaining


class SessionExpired(FeedloomError):
    """A ranked feed session is gone: the client must reload the top of the feed."""


class UpstreamFailed(FeedloomError):
    """An outside service (a feed generator, a webhook receiver) did not answer usably:
    refused, unreachable, a redirect, too large, or not what its contract says."""


class UpstreamTimeout(UpstreamFailed):
    """An outside service did not answer within its time cap."""


class TargetRefused(UpstreamFailed):
    """An outbound URL that points where feedloom never sends requests (a private,
    loopback, link-local, multicast or reserved address, or not http(s))."""
