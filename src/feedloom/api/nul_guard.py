"""NUL characters in a URL are refused before any route sees them: a path holding one
names nothing (404), a query holding one is invalid input (422). PostgreSQL text and
file names cannot hold NUL, so without this one backend would fail where the other
answers; request bodies are checked the same way by api/schemas.py (`Strict`)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from feedloom.api.problems import problem


class NulGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _refusal(scope: Scope) -> ASGIApp | None:
        if "\x00" in scope["path"]:
            return problem(404, "not-found", "Not found", "no such resource")
        query: bytes = scope.get("query_string", b"")
        if b"%00" in query or b"\x00" in query:
            detail = "query parameters must not contain NUL characters"
            return problem(422, "invalid-input", "Invalid input", detail)
        return None
