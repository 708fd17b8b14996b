"""Dependencies shared by the routes, as Annotated aliases: each route names the one
use case it calls, taken from the composition root built at startup.

Every dependency is `async def`, even the ones that never await: FastAPI runs a plain
`def` dependency in a worker thread, a thread hop per dependency per request (a fifth
of a warm feed read's server time, measured)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request

from feedloom.bootstrap import Feedloom
from feedloom.domain.cursors import FEED_CURSOR_PATTERN, KEYSET_PATTERN
from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.domain.idempotency import IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY
from feedloom.domain.ids import ID_PATTERN, parse_id
from feedloom.domain.patterns import SEARCH_QUERY
from feedloom.domain.people import FOLLOW_CURSOR_PATTERN, SEARCH_CURSOR_PATTERN
from feedloom.domain.search import ANY_SEARCH_CURSOR_PATTERN, MAX_QUERY
from feedloom.domain.threads import THREAD_CURSOR_PATTERN
from feedloom.read.author_posts import AuthorPosts
from feedloom.read.comments import Comments
from feedloom.read.context import Context
from feedloom.read.feed_order import FeedOrders
from feedloom.read.feeds import Feeds
from feedloom.read.generator_feed import GeneratorFeed
from feedloom.read.home_feed import HomeFeed
from feedloom.read.home_stream import HomeStream
from feedloom.read.new_posts import NewPosts
from feedloom.read.notifications import Notifications
from feedloom.read.people import People
from feedloom.read.search import SearchPosts, SearchTags
from feedloom.read.suggestions import Suggestions
from feedloom.read.tags import TagPages
from feedloom.read.trending import TrendingPosts, TrendingTags
from feedloom.write.accounts import AccountService
from feedloom.write.credentials import Credentials
from feedloom.write.delete_post import DeletePost
from feedloom.write.dismiss_suggestion import DismissSuggestion
from feedloom.write.edit_post import EditPost
from feedloom.write.engagement import Engage
from feedloom.write.erase_account import EraseAccount
from feedloom.write.generators import RegisterGenerator
from feedloom.write.lists import Lists
from feedloom.write.markers import Markers
from feedloom.write.media import MediaUploads
from feedloom.write.moderation import Moderation, Reports
from feedloom.write.notifications import NotificationSettings
from feedloom.write.profile import EditProfile
from feedloom.write.publish_post import PublishPost
from feedloom.write.relations import Relations
from feedloom.write.repost import Repost
from feedloom.write.saved_feeds import MutedWords, SavedFeeds
from feedloom.write.sessions import Authenticator, CurrentSession, Sessions
from feedloom.write.stream_tickets import StreamTickets
from feedloom.write.tag_follows import FollowTags


def feedloom_of(request: Request) -> Feedloom:
    built: Feedloom = request.app.state.feedloom
    return built


async def _feedloom(request: Request) -> Feedloom:
    return feedloom_of(request)


def _service(name: str) -> Callable[[Request], Awaitable[Any]]:
    async def get(request: Request) -> Any:
        return getattr(feedloom_of(request).services, name)

    return get


AccountsDep = Annotated[AccountService, Depends(_service("accounts"))]
AuthDep = Annotated[Authenticator, Depends(_service("auth"))]
SessionsDep = Annotated[Sessions, Depends(_service("sessions"))]
EraseAccountDep = Annotated[EraseAccount, Depends(_service("erase_account"))]
EditProfileDep = Annotated[EditProfile, Depends(_service("edit_profile"))]
PublishDep = Annotated[PublishPost, Depends(_service("publish"))]
DeletePostDep = Annotated[DeletePost, Depends(_service("delete_post"))]
EditPostDep = Annotated[EditPost, Depends(_service("edit_post"))]
SearchPostsDep = Annotated[SearchPosts, Depends(_service("search_posts"))]
SearchTagsDep = Annotated[SearchTags, Depends(_service("search_tags"))]
RepostDep = Annotated[Repost, Depends(_service("repost"))]
RelationsDep = Annotated[Relations, Depends(_service("relations"))]
EngageDep = Annotated[Engage, Depends(_service("engage"))]
MediaDep = Annotated[MediaUploads, Depends(_service("media"))]
ReportsDep = Annotated[Reports, Depends(_service("reports"))]
ModerationDep = Annotated[Moderation, Depends(_service("moderation"))]
HomeFeedDep = Annotated[HomeFeed, Depends(_service("home_feed"))]
FeedOrdersDep = Annotated[FeedOrders, Depends(_service("feed_orders"))]
AuthorPostsDep = Annotated[AuthorPosts, Depends(_service("author_posts"))]
CommentsDep = Annotated[Comments, Depends(_service("comments"))]
ContextDep = Annotated[Context, Depends(_service("context"))]
PeopleDep = Annotated[People, Depends(_service("people"))]
SuggestionsDep = Annotated[Suggestions, Depends(_service("suggestions"))]
DismissSuggestionDep = Annotated[DismissSuggestion, Depends(_service("dismiss_suggestion"))]
TrendingDep = Annotated[TrendingPosts, Depends(_service("trending"))]
ListsDep = Annotated[Lists, Depends(_service("lists"))]
SavedFeedsDep = Annotated[SavedFeeds, Depends(_service("saved_feeds"))]
MutedWordsDep = Annotated[MutedWords, Depends(_service("muted_words"))]
RegisterGeneratorDep = Annotated[RegisterGenerator, Depends(_service("register_generator"))]
GeneratorFeedDep = Annotated[GeneratorFeed, Depends(_service("generator_feed"))]
FeedsDep = Annotated[Feeds, Depends(_service("feeds"))]
TrendingTagsDep = Annotated[TrendingTags, Depends(_service("trending_tags"))]
TagPagesDep = Annotated[TagPages, Depends(_service("tag_pages"))]
FollowTagsDep = Annotated[FollowTags, Depends(_service("follow_tags"))]
NewPostsDep = Annotated[NewPosts, Depends(_service("new_posts"))]
HomeStreamDep = Annotated[HomeStream, Depends(_service("home_stream"))]
StreamTicketsDep = Annotated[StreamTickets, Depends(_service("stream_tickets"))]
NotificationsDep = Annotated[Notifications, Depends(_service("notifications"))]
NotificationSettingsDep = Annotated[
    NotificationSettings, Depends(_service("notification_settings"))
]
MarkersDep = Annotated[Markers, Depends(_service("markers"))]
FeedloomDep = Annotated[Feedloom, Depends(_feedloom)]  # operations routes only


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send `Authorization: Bearer <token>` (POST /v1/sessions gives one)")
    return token.strip()


# The two below take the request alone, not the authenticator and each other as
# dependencies: FastAPI pays for every dependency of every request (a full solve per
# link), and they are on every route. ONE resolver for every kind of bearer (a session
# token, a user token an app signed, …): write/credentials.py.
async def current_session(request: Request) -> CurrentSession:
    credentials: Credentials = feedloom_of(request).services.credentials
    session = await credentials.session(bearer_token(request))
    if session.scopes is not None:
        # An app's token is limited to its scopes, which only the Mastodon-compatible
        # surface checks (api/mastodon): it opens no door of /v1.
        raise Unauthorized("this token was granted to an app: use it on /api/v1")
    return session


async def current_user(request: Request) -> int:
    return (await current_session(request)).user_id


async def _token(request: Request) -> str:
    return bearer_token(request)


ThisSession = Annotated[CurrentSession, Depends(current_session)]
CurrentUser = Annotated[int, Depends(current_user)]


async def client_address(request: Request) -> str:
    """The client's address, what sign-in and sign-up are throttled by. Behind a reverse
    proxy named in FEEDLOOM_HTTP__TRUSTED_PROXIES it is the client the proxy forwards
    (api/forwarded.py); otherwise the TCP peer's, whatever the request says."""
    return request.client.host if request.client is not None else "unknown"


ClientAddress = Annotated[str, Depends(client_address)]
Token = Annotated[str, Depends(_token)]


# Documented only: an ID that does not match names nothing, a 404 (`_parse`).
_ID = {"pattern": ID_PATTERN}


async def post_id_path(
    post_id: Annotated[str, Path(description="post ID (decimal string)", json_schema_extra=_ID)],
) -> int:
    return _parse("post", post_id)


async def user_id_path(
    user_id: Annotated[str, Path(description="user ID (decimal string)", json_schema_extra=_ID)],
) -> int:
    return _parse("user", user_id)


async def list_id_path(
    list_id: Annotated[str, Path(description="list ID (decimal string)", json_schema_extra=_ID)],
) -> int:
    return _parse("list", list_id)


async def feed_id_path(
    feed_id: Annotated[str, Path(description="feed ID (decimal string)", json_schema_extra=_ID)],
) -> int:
    return _parse("feed", feed_id)


async def generator_id_path(
    generator_id: Annotated[
        str, Path(description="generator ID (decimal string)", json_schema_extra=_ID)
    ],
) -> int:
    return _parse("generator", generator_id)


def _parse(kind: str, value: str) -> int:
    try:
        return parse_id(value)
    except ValueError as error:
        raise NotFound(f"no {kind} with id {value!r}") from error


# Every write that takes a key takes it this way: one documented limit for all of them.
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=MAX_IDEMPOTENCY_KEY,
        pattern=IDEMPOTENCY_KEY_PATTERN,
        description="a retry with the same key answers as the first request did "
        f"(1-{MAX_IDEMPOTENCY_KEY} printable ASCII characters)",
    ),
]


async def comment_id_path(
    comment_id: Annotated[
        str, Path(description="comment ID (decimal string)", json_schema_extra=_ID)
    ],
) -> int:
    return _parse("comment", comment_id)


PostId = Annotated[int, Depends(post_id_path)]
CommentId = Annotated[int, Depends(comment_id_path)]
UserId = Annotated[int, Depends(user_id_path)]
ListId = Annotated[int, Depends(list_id_path)]
FeedId = Annotated[int, Depends(feed_id_path)]
GeneratorId = Annotated[int, Depends(generator_id_path)]
# A cursor's pattern is documented, not checked by FastAPI: the page's own decoder
# checks it and answers a malformed cursor with 400, as it always did.
_CURSOR = "opaque, from next_cursor"
Cursor = Annotated[
    str | None, Query(description=_CURSOR, json_schema_extra={"pattern": KEYSET_PATTERN})
]
FeedCursor = Annotated[
    str | None, Query(description=_CURSOR, json_schema_extra={"pattern": FEED_CURSOR_PATTERN})
]
SearchCursor = Annotated[
    str | None, Query(description=_CURSOR, json_schema_extra={"pattern": SEARCH_CURSOR_PATTERN})
]
SearchQuery = Annotated[
    str,
    Query(
        min_length=1,
        max_length=MAX_QUERY,
        description="words to find (case and Latin accents ignored); it must hold a letter "
        "or digit",
        json_schema_extra={"pattern": SEARCH_QUERY},
    ),
]
AnySearchCursor = Annotated[
    str | None,
    Query(description=_CURSOR, json_schema_extra={"pattern": ANY_SEARCH_CURSOR_PATTERN}),
]
ThreadCursor = Annotated[
    str | None, Query(description=_CURSOR, json_schema_extra={"pattern": THREAD_CURSOR_PATTERN})
]
FollowCursor = Annotated[
    str | None, Query(description=_CURSOR, json_schema_extra={"pattern": FOLLOW_CURSOR_PATTERN})
]
