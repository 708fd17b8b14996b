"""Dependencies shared by the routes, as Annotated aliases: each route names the one
use case it calls, taken from the composition root built at startup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request

from feedloom.bootstrap import Feedloom
from feedloom.domain.errors import NotFound, Unauthorized
from feedloom.domain.ids import parse_id
from feedloom.metrics import Metrics
from feedloom.read.author_posts import AuthorPosts
from feedloom.read.comments import Comments
from feedloom.read.feed_order import FeedOrders
from feedloom.read.home_feed import HomeFeed
from feedloom.read.home_stream import HomeStream
from feedloom.read.new_posts import NewPosts
from feedloom.read.people import People
from feedloom.read.trending import TrendingPosts
from feedloom.write.accounts import AccountService, Authenticator
from feedloom.write.delete_post import DeletePost
from feedloom.write.engagement import Engage
from feedloom.write.media import MediaUploads
from feedloom.write.moderation import Moderation, Reports
from feedloom.write.profile import EditProfile
from feedloom.write.publish_post import PublishPost
from feedloom.write.relations import Relations
from feedloom.write.stream_tickets import StreamTickets


def feedloom_of(request: Request) -> Feedloom:
    built: Feedloom = request.app.state.feedloom
    return built


def _service(name: str) -> Callable[[Request], Any]:
    def get(request: Request) -> Any:
        return getattr(feedloom_of(request).services, name)

    return get


AccountsDep = Annotated[AccountService, Depends(_service("accounts"))]
AuthDep = Annotated[Authenticator, Depends(_service("auth"))]
EditProfileDep = Annotated[EditProfile, Depends(_service("edit_profile"))]
PublishDep = Annotated[PublishPost, Depends(_service("publish"))]
DeletePostDep = Annotated[DeletePost, Depends(_service("delete_post"))]
RelationsDep = Annotated[Relations, Depends(_service("relations"))]
EngageDep = Annotated[Engage, Depends(_service("engage"))]
MediaDep = Annotated[MediaUploads, Depends(_service("media"))]
ReportsDep = Annotated[Reports, Depends(_service("reports"))]
ModerationDep = Annotated[Moderation, Depends(_service("moderation"))]
HomeFeedDep = Annotated[HomeFeed, Depends(_service("home_feed"))]
FeedOrdersDep = Annotated[FeedOrders, Depends(_service("feed_orders"))]
AuthorPostsDep = Annotated[AuthorPosts, Depends(_service("author_posts"))]
CommentsDep = Annotated[Comments, Depends(_service("comments"))]
PeopleDep = Annotated[People, Depends(_service("people"))]
TrendingDep = Annotated[TrendingPosts, Depends(_service("trending"))]
NewPostsDep = Annotated[NewPosts, Depends(_service("new_posts"))]
HomeStreamDep = Annotated[HomeStream, Depends(_service("home_stream"))]
StreamTicketsDep = Annotated[StreamTickets, Depends(_service("stream_tickets"))]
FeedloomDep = Annotated[Feedloom, Depends(feedloom_of)]  # operations routes only


def metrics_of(request: Request) -> Metrics:
    return feedloom_of(request).metrics


MetricsDep = Annotated[Metrics, Depends(metrics_of)]


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send `Authorization: Bearer <token>` (POST /v1/sessions gives one)")
    return token.strip()


async def current_user(request: Request, auth: AuthDep) -> int:
    return await auth.authenticate(bearer_token(request))


CurrentUser = Annotated[int, Depends(current_user)]
Token = Annotated[str, Depends(bearer_token)]


def post_id_path(post_id: Annotated[str, Path(description="post ID (decimal string)")]) -> int:
    return _parse("post", post_id)


def user_id_path(user_id: Annotated[str, Path(description="user ID (decimal string)")]) -> int:
    return _parse("user", user_id)


def _parse(kind: str, value: str) -> int:
    try:
        return parse_id(value)
    except ValueError as error:
        raise NotFound(f"no {kind} with id {value!r}") from error


PostId = Annotated[int, Depends(post_id_path)]
UserId = Annotated[int, Depends(user_id_path)]
Cursor = Annotated[str | None, Query(max_length=512, description="opaque, from next_cursor")]
