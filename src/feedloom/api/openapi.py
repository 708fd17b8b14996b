"""The OpenAPI document as clients see it: a bearer scheme, problem+json errors with
their real shape, and the limits this process really enforces.

Errors are declared here, once, from what an operation is made of rather than route by
route: an operation behind the bearer scheme can answer 401, one with an ID in its path
404 (an object the viewer may not see is missing too), one with a query or a body 422,
one with a JSON body or a cursor 400, one with a body 413. The few errors only some
operations raise are in `SPECIFIC`. tests/api/test_openapi.py provokes every code
declared, so the document cannot promise a status an operation never returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from feedloom.api.problems import PROBLEM_JSON
from feedloom.domain.patterns import text
from feedloom.settings import Settings

BEARER = "bearer"

PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "RFC 9457 problem details; `errors` only on 422 for invalid fields.",
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "format": "uri", "description": "machine-readable kind"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string", "description": "what went wrong, for a human"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "loc": {"type": "array", "items": {"type": "string"}},
                    "msg": {"type": "string"},
                    "type": {"type": "string"},
                },
            },
        },
    },
    "examples": [
        {
            "type": "https://feedloom.dev/problems/not-found",
            "title": "Not found",
            "status": 404,
            "detail": "no such post",
        }
    ],
}

REASONS = {
    400: "Malformed JSON or cursor",
    401: "No valid bearer token (POST /v1/sessions gives one; an app's key on /v1/apps)",
    403: "Not yours to change, a wrong password, or an API key without the scope",
    404: "No such object, or not visible to you",
    409: "Conflicts with existing data (a taken username, a used upload URL)",
    410: "The ranked feed session expired: reload the top of the feed",
    413: "Body too large",
    422: "Invalid input",
    429: "Rate limited (see Retry-After and the RateLimit-* headers)",
    502: "The feed generator failed or answered outside its contract",
    503: "The database is unreachable: retry after Retry-After",
    504: "The feed generator did not answer in time",
}

# (method, path) -> codes beyond the ones derived from the operation's shape.
MODERATOR_ONLY = (
    ("get", "/v1/moderation/queue"),
    ("get", "/v1/moderation/spikes"),
    ("post", "/v1/moderation/posts/{post_id}/release"),
    ("post", "/v1/moderation/posts/{post_id}/reject"),
    *(
        (method, f"/v1/moderation/accounts/{{username}}/{what}")
        for method in ("put", "delete")
        for what in ("suspension", "flag")
    ),
)
SPECIFIC: dict[tuple[str, str], tuple[int, ...]] = {
    ("post", "/v1/accounts"): (409, 429),
    ("post", "/v1/sessions"): (401, 429),  # unknown username or wrong password; too many
    # A reply to or quote of a post you may not see (or a retry whose post is gone); a
    # key reused for another request; too many.
    ("post", "/v1/posts"): (403, 404, 409, 429),  # 403: a quote of a followers-only post
    ("post", "/v1/posts/{post_id}/comments"): (409, 429),
    ("patch", "/v1/posts/{post_id}"): (409, 429),  # a key reused; too many (posts limit)
    ("put", "/v1/posts/{post_id}/like"): (429,),
    ("delete", "/v1/posts/{post_id}/like"): (429,),
    ("put", "/v1/posts/{post_id}/repost"): (403, 429),  # not public; too many
    ("post", "/v1/media"): (429,),
    ("patch", "/v1/me"): (404,),  # an avatar_media_id that is not an image of yours
    ("put", "/v1/me/password"): (403, 429),  # wrong current password; too many tries
    ("delete", "/v1/me"): (403, 429),
    ("delete", "/v1/posts/{post_id}"): (403,),
    ("delete", "/v1/posts/{post_id}/comments/{comment_id}"): (403,),  # someone else's
    ("put", "/v1/users/{user_id}/follow"): (422, 429),  # yourself; too many (a block is a 404)
    ("put", "/v1/media/{media_id}/content"): (403, 409, 413),
    ("get", "/v1/feed"): (410,),
    ("get", "/v1/users/lookup"): (404,),
    ("put", "/v1/tags/{tag}/follow"): (409, 429),  # 100 tags followed already; too many
    ("get", "/v1/streams/home"): (429,),  # too many open streams
    # Lists, saved feeds and generators (docs/FEEDS.md): limits and reused keys are 409.
    ("post", "/v1/lists"): (409,),
    ("put", "/v1/lists/{list_id}/members/{user_id}"): (409,),  # full; not followed
    ("put", "/v1/me/feeds"): (409,),  # not every saved feed of yours, once
    ("post", "/v1/feeds"): (404, 409),  # a source naming nothing you may read; too many
    ("post", "/v1/generators"): (409,),  # the URI is registered already
    ("get", "/v1/feeds/{feed_id}/items"): (502, 504),  # a generator feed's generator
    ("get", "/v1/generators/{generator_id}/items"): (502, 504),
    ("post", "/v1/generators/{generator_id}/feedback"): (502, 504),
    **{operation: (403,) for operation in MODERATOR_ONLY},  # not a moderator
    **{
        (method, f"/v1/users/{{user_id}}/{relation}"): (422,)  # yourself
        for method in ("put", "delete")
        for relation in ("follow", "block", "mute")
        if (method, relation) != ("put", "follow")
    },
}

# The app endpoints (docs/INTEGRATION.md) take an app's API key: each may answer 403 (the
# key lacks the scope) and 429 (the app's rate limit), and these more.
APPS = "/v1/apps/"
APP_KEY = "app_key"
APP_SPECIFIC: dict[tuple[str, str], tuple[int, ...]] = {
    ("put", "/v1/apps/users/{external_id}"): (409,),  # a username another account holds
    ("post", "/v1/apps/users:batch"): (413,),  # more rows than a batch holds
    ("post", "/v1/apps/follows:batch"): (413,),
    ("post", "/v1/apps/users/{external_id}/posts"): (409,),  # an Idempotency-Key reused
    ("post", "/v1/apps/users/{external_id}/posts/{post_id}/comments"): (409,),
}

APP_UPSERTS = {("put", "/v1/apps/users/{external_id}")}

# Operations a stream ticket authorizes instead of the bearer token (EventSource
# cannot send headers).
TICKETED = {("get", "/v1/streams/home")}
TICKET = "stream_ticket"

# Operations that need no bearer token.
PUBLIC = {
    ("post", "/v1/accounts"),
    ("post", "/v1/sessions"),
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/metrics"),
    ("get", "/v1/limits"),
}

# Operations that answer without the database (every other one may answer 503).
STORELESS = {("get", "/healthz"), ("get", "/metrics"), ("get", "/v1/limits")}


def operation_id(route: APIRoute) -> str:
    """The endpoint's own name (`create_post`), `app_`-prefixed on the app endpoints,
    which reuse the user surface's names: what a generated client calls its functions
    (clients/python), instead of FastAPI's default of name, path and method."""
    return f"app_{route.name}" if route.path_format.startswith(APPS) else route.name


def install_openapi(app: FastAPI, settings: Settings) -> None:
    app.openapi = _builder(app, settings)  # type: ignore[method-assign]


def _builder(app: FastAPI, settings: Settings) -> Callable[[], dict[str, Any]]:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
                tags=app.openapi_tags,
            )
            _declare(schema, settings)
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


def _declare(schema: dict[str, Any], settings: Settings) -> None:
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})[BEARER] = {
        "type": "http",
        "scheme": "bearer",
        "description": "the `token` of POST /v1/sessions",
    }
    components["securitySchemes"][APP_KEY] = {
        "type": "http",
        "scheme": "bearer",
        "description": "an app's API key, `fl_sk_…` (`feedloom apps create`)",
    }
    components["securitySchemes"][TICKET] = {
        "type": "apiKey",
        "in": "query",
        "name": "ticket",
        "description": "from POST /v1/streams/tickets, for EventSource",
    }
    schemas = components.setdefault("schemas", {})
    schemas["Problem"] = PROBLEM_SCHEMA
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    _real_limits(schemas, settings)
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            _no_nul_in_requests(operation, schemas)
            if (method, path) in TICKETED:
                operation["security"] = [{BEARER: []}, {TICKET: []}]
            elif path.startswith(APPS):
                operation["security"] = [{APP_KEY: []}]
            elif (method, path) not in PUBLIC:
                operation["security"] = [{BEARER: []}]
            responses = operation.setdefault("responses", {})
            # FastAPI's own 422 (HTTPValidationError) is neither our shape nor always true.
            responses.pop("422", None)
            for code in sorted(error_codes(method, path, operation)):
                responses[str(code)] = {
                    "description": REASONS[code],
                    "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
                }
            _example_on_success(responses, schemas)


def error_codes(method: str, path: str, operation: dict[str, Any]) -> set[int]:
    """The error statuses an operation can answer, from its shape and SPECIFIC."""
    parameters = operation.get("parameters", [])
    codes = set(SPECIFIC.get((method, path), ()))
    if path.startswith(APPS):
        codes |= {403, 429, *APP_SPECIFIC.get((method, path), ())}
        if (method, path) in APP_UPSERTS:
            return (codes | {401, 503, 400, 422}) - {404}  # an unknown ID is created
    if (method, path) not in PUBLIC:
        codes.add(401)
    if (method, path) not in STORELESS:
        codes.add(503)
    if any(p["in"] == "path" for p in parameters):
        codes.add(404)
    if "requestBody" in operation or any(_checked(p) for p in parameters):
        codes.add(422)
    if "requestBody" in operation or any(p["name"] == "cursor" for p in parameters):
        codes.add(400)
    if "requestBody" in operation:
        codes.add(413)  # every body is bounded (api/app.py, the body limit)
    return codes


def _checked(parameter: dict[str, Any]) -> bool:
    """A query parameter, or a path one with a length the framework checks (an
    external ID): a value out of bounds is 422. Other path IDs are 404."""
    return parameter["in"] == "query" or "maxLength" in parameter.get("schema", {})


# A request string the document says nothing more of may hold anything but NUL: the
# server refuses NUL in every query (api/nul_guard.py) and body (api/schemas.py Strict).
NO_NUL = text()
SAYS_MORE = {"pattern", "enum", "const", "format"}


def _no_nul_in_requests(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    for parameter in operation.get("parameters", []):
        _no_nul(parameter.get("schema", {}), schemas, set())
    for content in operation.get("requestBody", {}).get("content", {}).values():
        _no_nul(content.get("schema", {}), schemas, set())


def _no_nul(schema: dict[str, Any], schemas: dict[str, Any], seen: set[str]) -> None:
    if ref := schema.get("$ref"):
        name = ref.rsplit("/", 1)[-1]
        if name not in seen and name in schemas:
            seen.add(name)
            _no_nul(schemas[name], schemas, seen)
        return
    if schema.get("type") == "string" and not SAYS_MORE & schema.keys():
        schema["pattern"] = NO_NUL
    for key in ("anyOf", "allOf", "oneOf"):
        for part in schema.get(key, []):
            _no_nul(part, schemas, seen)
    for part in schema.get("properties", {}).values():
        _no_nul(part, schemas, seen)
    if isinstance(items := schema.get("items"), dict):
        _no_nul(items, schemas, seen)


def _real_limits(schemas: dict[str, Any], settings: Settings) -> None:
    """Pydantic's limits are the widest any deployment may configure; the document shows
    this deployment's."""
    limits = {
        ("NewPost", "text"): {"maxLength": settings.post_max_chars},
        ("NewPost", "media_ids"): {"maxItems": settings.media_per_post},
        ("NewComment", "text"): {"maxLength": settings.comment_max_chars},
        ("Arrangement", "feeds"): {"maxItems": settings.saved_feeds.max_per_user},
        ("MutedWordsIn", "words"): {"maxItems": settings.saved_feeds.max_muted_words},
    }
    for (model, field), values in limits.items():
        if model in schemas:
            schemas[model]["properties"][field].update(values)


def _example_on_success(responses: dict[str, Any], schemas: dict[str, Any]) -> None:
    """Lift the response model's example onto the operation's success response."""
    for code, response in responses.items():
        if not code.startswith("2"):
            continue
        for content in response.get("content", {}).values():
            ref = content.get("schema", {}).get("$ref", "")
            examples = schemas.get(ref.rsplit("/", 1)[-1], {}).get("examples")
            if examples and "example" not in content:
                content["example"] = examples[0]
