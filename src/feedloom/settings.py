"""One typed Settings object, read from FEEDLOOM_* environment variables.

Loaded once in the CLI or create_app and passed down; nothing reads the environment
anywhere else. Nested groups use a double underscore: FEEDLOOM_FEED__DEFAULT_ORDER.
"""

from __future__ import annotations

import difflib
import ipaddress
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    Field,
    IPvAnyNetwork,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import FeedOrder
from feedloom.ports import RateRule
from feedloom.ranking import Weights

# The key file the embedded default generates on first start (bootstrap/secret_key.py).
SECRET_KEY_FILE = "secret_key"
SECRET_KEY_MIN_CHARS = 32
# Words of the placeholders examples and old versions shipped: a key copied from one is
# known to everyone who read it.
PLACEHOLDER_WORDS = ("replace-me", "change-me", "changeme", "example")
# Demo-sized thresholds: a few hundred users cannot reach 10,000 followers, but the
# demo should still show pulled (big) accounts next to pushed ones.
DEMO_FANOUT = {"pull_above": 60, "push_below": 48, "bulk_above": 30}


class FanoutSettings(BaseModel):
    pull_above: int = Field(
        10_000, ge=0, description="hybrid threshold: authors with more followers are pulled"
    )
    push_below: int = Field(
        8_000, ge=0, description="a pulled author is pushed again below this (hysteresis)"
    )
    bulk_above: int = Field(
        1_000, ge=0, description="pushed authors above this fan out on the bulk lane"
    )
    max_pulled_per_read: int = Field(
        100,
        ge=0,
        description="pulled authors merged per read; the rest arrive via timeline rebuilds",
    )
    batch_size: int = Field(
        100_000,
        ge=1,
        le=1_000_000,
        description="(timeline, post) inserts per fan-out chunk (Redis groups a chunk by "
        "timeline: docs/REDIS.md)",
    )
    bulk_batch_size: int = Field(
        10_000,
        ge=1,
        le=1_000_000,
        description="the same for big accounts' fan-outs (the bulk lane): smaller, so "
        "ordinary posts are not held up behind them",
    )
    dead_letter_after: int = Field(
        3, ge=1, le=100, description="tries before a failing event goes to the dead letters"
    )
    resend_lost_after_s: float = Field(
        10.0, gt=0, description="a sent event whose stream was lost is re-sent after this"
    )

    @model_validator(mode="after")
    def _valid_policy(self) -> Self:
        self.policy()  # the domain object checks its own invariants (hysteresis)
        return self

    def policy(self) -> FanoutPolicy:
        return FanoutPolicy(
            pull_above=self.pull_above,
            push_below=self.push_below,
            bulk_above=self.bulk_above,
            max_pulled_per_read=self.max_pulled_per_read,
        )


class RankingWeights(BaseModel):
    """The ranked feed's score knobs (docs/RANKING.md): FEEDLOOM_FEED__WEIGHTS__AFFINITY..."""

    affinity: float = Field(
        2.0, ge=0, allow_inf_nan=False, description="ranked feed: weight of reader-author affinity"
    )
    engagement: float = Field(
        1.0, ge=0, allow_inf_nan=False, description="ranked feed: weight of a post's engagement"
    )
    half_life_hours: float = Field(
        6.0, gt=0, allow_inf_nan=False, description="ranked feed: a score halves every this much"
    )

    def weights(self) -> Weights:
        return Weights(self.affinity, self.engagement, self.half_life_hours)


class FeedSettings(BaseModel):
    default_order: FeedOrder = Field(
        FeedOrder.CHRONOLOGICAL,
        description="`chronological` or `ranked`, for readers who chose no order",
    )
    default_limit: int = Field(20, ge=1, le=100, description="items per page without `limit`")
    own_posts_window_s: int = Field(
        600, ge=0, description="your own posts this recent are merged in (read-your-writes)"
    )
    tag_posts_per_read: int = Field(
        20,
        ge=0,
        le=100,
        description="posts of followed tags (by accounts not followed) merged into one read "
        "of a home feed, newest first",
    )
    weights: RankingWeights = RankingWeights()
    rank_candidates: int = Field(300, ge=1, le=5_000, description="posts ranked per session")
    session_ttl_s: int = Field(300, ge=1, description="how long a ranked feed session lasts")
    ranker_budget_ms: int = Field(50, ge=1, description="slower rankers fall back to time order")
    pin_own_s: int = Field(300, ge=0, description="own posts this fresh stay on top when ranked")
    affinity_half_life_days: float = Field(
        14.0,
        gt=0,
        allow_inf_nan=False,
        description="a like or comment counts half toward affinity after this "
        "(`feedloom affinity rebuild` after a change)",
    )
    feature_log_path: Path | None = Field(
        None, description="append the served features here as JSON lines (docs/RANKING.md)"
    )
    out_of_network_share: float = Field(
        0.1,
        ge=0,
        le=0.5,
        allow_inf_nan=False,
        description="share of the ranked feed's slots for posts from outside the people "
        "you follow (liked by several followees, or trending); 0 turns them off",
    )
    out_of_network_min_likers: int = Field(
        2, ge=1, le=100, description="followees who must have liked a post to recommend it"
    )
    out_of_network_followees: int = Field(
        50,
        ge=1,
        le=1_000,
        description="followees whose recent likes are read per ranked session (an hourly sample)",
    )


RATE = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d*)\s*(second|minute|hour|day)s?\s*$")
PERIOD_S = {"second": 1, "minute": 60, "hour": 3_600, "day": 86_400}


def parse_rate(name: str, text: str) -> RateRule:
    """ "30/minute", "25/5 minutes", "400 per hour" -> a rule named `name`."""
    match = RATE.match(text.lower())
    if match is None or int(match.group(1)) < 1 or match.group(2) == "0":
        raise ValueError(f'{text!r} is not a rate: write "N/period" or "N/M periods" (N >= 1)')
    amount, multiple, period = match.groups()
    return RateRule(name, int(amount), int(multiple or 1) * PERIOD_S[period])


class RateLimitSettings(BaseModel):
    """Moving-window rate limits (docs/OPERATIONS.md), FEEDLOOM_RATE_LIMITS__POSTS...:
    writes per account; sign-in per client address, per (account, address), and per
    account for clients that never signed in to it (within `known_client_days`);
    sign-up per address. Accounts younger than `young_account_hours` get
    `young_account_share` of each per-account write limit."""

    posts: str = Field("30/minute", description="posts per account")
    comments: str = Field("60/minute", description="comments per account")
    likes: str = Field("300/5 minutes", description="likes and unlikes per account")
    follows: str = Field("400/hour", description="new follows per account")
    media: str = Field("30/30 minutes", description="media uploads started per account")
    sign_in_per_address: str = Field(
        "25/5 minutes", description="sign-in attempts per client address"
    )
    sign_in_per_account_address: str = Field(
        "10/5 minutes", description="sign-in attempts per (username, client address)"
    )
    sign_in_per_account: str = Field(
        "10/5 minutes",
        description="sign-in attempts per username, from clients that never signed in to it",
    )
    sign_up_per_address: str = Field("10/30 minutes", description="sign-ups per client address")
    apps: str = Field(
        "6000/minute", description="requests per app authenticated by its API key (all routes)"
    )
    young_account_hours: float = Field(
        24,
        ge=0,
        allow_inf_nan=False,
        description="accounts younger than this get a share of each per-account limit",
    )
    young_account_share: float = Field(
        0.25, gt=0, le=1, allow_inf_nan=False, description="that share"
    )
    known_client_days: int = Field(
        90,
        ge=1,
        le=3_650,
        description="a client that signed in to an account (its device cookie, or its "
        "address) is exempt from that account's per-account sign-in limit this long",
    )

    @field_validator(
        "posts",
        "comments",
        "likes",
        "follows",
        "media",
        "sign_in_per_address",
        "sign_in_per_account_address",
        "sign_in_per_account",
        "sign_up_per_address",
        "apps",
    )
    @classmethod
    def _a_rate(cls, value: str) -> str:
        parse_rate("check", value)
        return value

    def rules(self) -> dict[str, RateRule]:
        names = [name for name, kind in type(self).model_fields.items() if kind.annotation is str]
        return {name: parse_rate(name, getattr(self, name)) for name in names}


class ModerationSettings(BaseModel):
    """The default content check before fan-out (write/content_check.py)."""

    repeat_limit: int = Field(3, ge=1, description="same text per author per window, then held")
    repeat_window_s: int = Field(600, ge=1, description="the window of the repeat limit")
    repeat_min_chars: int = Field(20, ge=1, description="shorter texts are never held as repeats")
    new_account_days: float = Field(3.0, ge=0, description="younger accounts are new")
    new_account_links: int = Field(5, ge=1, description="posts with links per window, new accounts")
    links_window_s: int = Field(600, ge=1, description="the window of the new accounts' links")
    blocked_words: list[str] = Field(
        default_factory=list,
        description="posts with any of these words are held before fan-out (JSON list, any "
        "case; the other checks: docs/COUNTING_AND_MODERATION.md)",
    )
    blocked_domains: list[str] = Field(
        default_factory=list,
        description='posts linking to these domains are held (JSON list: `["spam.example"]`)',
    )


class AppSettings(BaseModel):
    """Apps: API keys, the user tokens apps sign, their batches (docs/INTEGRATION.md)."""

    token_audience: str = Field(
        "feedloom", min_length=1, description="the `aud` every app-signed user token must carry"
    )
    token_leeway_s: int = Field(
        30, ge=0, le=300, description="clock skew allowed on a user token's `exp`, `iat`, `nbf`"
    )
    token_max_lifetime_s: int = Field(
        86_400,
        ge=60,
        le=86_400,
        description="a user token whose `exp` is further ahead than this is refused",
    )
    verified_tokens: int = Field(
        100_000, ge=0, description="user tokens remembered as verified, per process"
    )
    batch_max_rows: int = Field(
        10_000, ge=1, le=100_000, description="rows in one `:batch` request; more: 413"
    )
    batch_max_bytes: int = Field(
        8 * 2**20, ge=1024, description="largest `:batch` request body (NDJSON or a JSON array)"
    )
    batch_chunk_rows: int = Field(
        1_000, ge=1, le=10_000, description="rows of a batch written in one transaction"
    )


class MemoSettings(BaseModel):
    """How much each per-process memo may keep (docs/OPERATIONS.md, "Memory per
    process", adds them up). Each drops its oldest entries when full."""

    near_views: int = Field(
        50_000, ge=0, description="views, counts and viewer estimates kept near, per kind (Redis)"
    )
    near_records_mib: int = Field(
        32, ge=0, description="MiB of reader and likes records kept near, per kind (Redis)"
    )
    decoded_views: int = Field(
        50_000, ge=0, description="post and profile views kept decoded beside their bytes (Redis)"
    )
    decoded_readers: int = Field(10_000, ge=0, description="reader records kept decoded")
    post_authors: int = Field(100_000, ge=0, description="post -> author facts remembered")
    timeline_names: int = Field(100_000, ge=0, description="timeline key names remembered (Redis)")
    cluster_slots: int = Field(200_000, ge=0, description="key -> slot facts (Redis Cluster)")
    counted_viewers: int = Field(
        200_000, ge=0, description="(viewer, post) pairs counted lately, not counted again (Redis)"
    )
    active_users: int = Field(
        200_000, ge=0, description="users marked active within the hour, not marked again"
    )


class HttpSettings(BaseModel):
    """What a reverse proxy would enforce, enforced by the server `feedloom serve` runs
    (api/http_limits.py), plus the response headers every answer carries
    (api/security_headers.py). FEEDLOOM_HTTP__MAX_HEADER_BYTES..."""

    max_header_bytes: int = Field(
        16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="request line + headers; over: 431 "
        '(docs/PRODUCTION.md, "What the server sheds")',
    )
    header_timeout_s: float = Field(
        10.0, gt=0, description="a request's head must arrive within this (slowloris)"
    )
    body_timeout_s: float = Field(
        30.0, gt=0, description="longest pause between two pieces of a request body"
    )
    keep_alive_s: int = Field(5, ge=1, description="an idle kept-alive connection is closed")
    max_connections: int = Field(
        1_000, ge=1, description="open connections per process; more are answered 503"
    )
    hsts_max_age_s: int | None = Field(
        None, ge=0, description="behind TLS: send Strict-Transport-Security with this max-age"
    )
    cors_origins: list[str] = Field(
        [], description="origins whose browser pages may call the API (JSON list); none by default"
    )
    access_log: bool = Field(
        True, description="a log line per request; off behind a proxy that logs them (~6 % CPU)"
    )
    trusted_proxies: Annotated[list[IPvAnyNetwork], NoDecode] = Field(
        [],
        description="reverse proxies (addresses or CIDR ranges, comma-separated) whose "
        "forwarded header names the client; none: forwarded headers are ignored "
        '(docs/PRODUCTION.md, "Behind a reverse proxy")',
    )
    forwarded_header: Literal["x-forwarded-for", "forwarded"] = Field(
        "x-forwarded-for",
        description="the header the trusted proxies append the client to "
        "(`forwarded`: RFC 7239); the other one is ignored",
    )

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _networks(cls, value: object) -> object:
        """`127.0.0.1, 10.0.0.0/8, ::1`: an address is a range of one."""
        if not isinstance(value, str):
            return value
        networks = []
        for item in filter(None, (part.strip() for part in value.split(","))):
            try:
                networks.append(ipaddress.ip_network(item))
            except ValueError as error:
                raise ValueError(
                    f"{item!r} is not an IP address or CIDR range (like 10.0.0.0/8): {error}"
                ) from None
        return networks


class MediaSettings(BaseModel):
    """Where image bytes live (docs/PRODUCTION.md, "Media"): FEEDLOOM_MEDIA__STORE...
    `files`: a directory in data_dir, uploads PUT to the API (one machine). `s3`: an
    S3-compatible bucket every process shares, uploads PUT straight to it."""

    store: Literal["files", "s3"] = Field(
        "files",
        description="`files`: data_dir/media, one machine; `s3`: an S3-compatible bucket every "
        "machine shares, uploads PUT straight to it and checked by the worker "
        '(docs/PRODUCTION.md, "Media")',
    )
    upload_ttl_s: int = Field(900, ge=60, le=86_400, description="how long an upload URL works")
    signed_get_ttl_s: int = Field(
        3_600,
        ge=60,
        le=604_800,
        description="s3: GET /media/{name} redirects to a signed GET valid this long",
    )
    s3_bucket: str | None = Field(None, description="s3: the bucket (required)")
    s3_endpoint_url: str | None = Field(
        None, description="s3: the endpoint the servers use; unset: AWS S3 in s3_region"
    )
    s3_public_endpoint_url: str | None = Field(
        None, description="s3: the endpoint browsers reach, if not s3_endpoint_url"
    )
    s3_region: str = Field("us-east-1", description="s3: the region (R2: auto)")
    s3_access_key_id: SecretStr | None = Field(
        None, description="s3: unset: the AWS chain (AWS_* variables, instance role)"
    )
    s3_secret_access_key: SecretStr | None = Field(
        None, description="s3: the secret of s3_access_key_id (both or neither)"
    )
    s3_path_style: bool = Field(
        False, description="s3: the bucket in the URL's path, not its host (MinIO, Garage)"
    )

    @model_validator(mode="after")
    def _a_bucket_for_s3(self) -> Self:
        if self.store == "s3" and not self.s3_bucket:
            raise ValueError("FEEDLOOM_MEDIA__STORE=s3 needs FEEDLOOM_MEDIA__S3_BUCKET")
        if (self.s3_access_key_id is None) != (self.s3_secret_access_key is None):
            raise ValueError(
                "set both FEEDLOOM_MEDIA__S3_ACCESS_KEY_ID and FEEDLOOM_MEDIA__S3_SECRET_ACCESS_KEY"
                " or neither"
            )
        return self

    def browser_origins(self) -> list[str]:
        """Where browsers PUT uploads and follow signed GETs to: the web client's CSP
        must allow them (api/web.py): the endpoint, and its virtual host for the bucket
        unless the bucket is in the path; AWS S3 without an endpoint: the bucket's hosts."""
        if self.store != "s3":
            return []
        endpoint = self.s3_public_endpoint_url or self.s3_endpoint_url
        if endpoint is None:
            hosts = ("s3.amazonaws.com", f"s3.{self.s3_region}.amazonaws.com")
            return [f"https://{self.s3_bucket}.{host}" for host in hosts]
        parts = urlsplit(endpoint)
        origin = f"{parts.scheme}://{parts.netloc}"
        if self.s3_path_style:
            return [origin]
        return [origin, f"{parts.scheme}://{self.s3_bucket}.{parts.netloc}"]


class ListSettings(BaseModel):
    """Lists of accounts (docs/FEEDS.md)."""

    max_per_user: int = Field(50, ge=1, le=10_000, description="lists one account may have")
    max_members: int = Field(
        500,
        ge=1,
        le=10_000,
        description="members per list (a list feed merges every member's author timeline "
        "at read time)",
    )


class SavedFeedSettings(BaseModel):
    """Saved feed definitions and muted words (docs/FEEDS.md)."""

    max_per_user: int = Field(50, ge=1, le=10_000, description="saved feeds one account may have")
    max_muted_words: int = Field(
        200, ge=0, le=10_000, description="muted words (and phrases) one account may have"
    )


class GeneratorSettings(BaseModel):
    """Custom feeds from outside (docs/FEEDS.md): how feedloom calls a generator."""

    allow_loopback: bool = Field(
        False,
        description="let generator URLs point at 127.0.0.0/8 and ::1 (tests, one-machine "
        "setups); private, link-local and other addresses stay refused",
    )
    timeout_s: float = Field(
        2.0, gt=0, le=30, description="a generator's whole answer must arrive within this"
    )
    max_bytes: int = Field(
        256 * 1024, ge=1024, le=16 * 1024 * 1024, description="largest generator answer read"
    )


class WebhookSettings(BaseModel):
    """Webhooks: how deliveries are sent and retried (docs/INTEGRATION.md)."""

    allow_loopback: bool = Field(
        False,
        description="let webhook URLs point at 127.0.0.0/8 and ::1 (tests, one-machine "
        "setups); private, link-local and other addresses stay refused",
    )
    timeout_s: float = Field(
        5.0, gt=0, le=60, description="a receiver's whole answer must arrive within this"
    )
    max_bytes: int = Field(
        64 * 1024, ge=1024, le=16 * 2**20, description="largest receiver answer read"
    )
    retry_base_s: float = Field(
        5.0, gt=0, description="first retry after about this long, doubling each time"
    )
    retry_max_s: float = Field(3_600.0, gt=0, description="longest wait between two tries")
    give_up_after_s: float = Field(
        86_400.0, gt=0, description="a delivery still failing this long after its event is dead"
    )
    concurrency: int = Field(32, ge=1, le=1024, description="deliveries in flight per process")
    per_receiver: int = Field(
        4, ge=1, le=256, description="deliveries in flight to one webhook URL, per process"
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="FEEDLOOM_", env_nested_delimiter="__", extra="ignore"
    )

    environment: Literal["local", "test", "production"] = Field(
        "local",
        description="a label for the deployment; nothing reads it (what production needs, "
        "a secret key for one, follows from the URLs set)",
    )
    data_dir: Path = Field(
        Path("data"),
        description="the embedded default's SQLite file, generated secret key and control "
        "file (`--data-dir` wins)",
    )
    database_url: str | None = Field(
        None,
        description="unset: a SQLite file in `FEEDLOOM_DATA_DIR`; `postgresql://…` for PostgreSQL",
    )
    database_schema: str | None = Field(
        None,
        pattern=r"^[a-z_][a-z0-9_]*$",
        description="PostgreSQL schema (`feedloom migrate` creates it); unset: `public`",
    )
    database_wait_s: float = Field(
        30.0,
        gt=0,
        le=600,
        description="longest wait for the database (a pooled or new connection, SQLite's "
        "write lock) before a request answers 503",
    )
    redis_url: str | None = Field(
        None,
        description="unset: in-process caches and queue; `redis://…`, `rediss://…` or "
        "`redis+cluster://…` for Redis (docs/PRODUCTION.md)",
    )
    redis_prefix: str = Field(
        "fl", description="first part of every Redis key: deployments can share a server"
    )
    redis_cluster: bool = Field(
        False, description="treat a plain `redis://` URL as a Redis Cluster node"
    )
    redis_timeline_buckets: int = Field(
        1024,
        ge=1,
        le=16384,
        description="hash-tag buckets of the timeline keys: how they spread over a cluster's "
        "slots (docs/REDIS.md); the same in every process, checked at start",
    )
    redis_near_cache: bool = Field(
        True,
        description="keep views, counts, likes records and viewer estimates in process "
        "while Redis reports them unchanged (client tracking; one server, not a cluster: "
        "docs/REDIS.md)",
    )
    reclaim_idle_s: float = Field(
        5.0,
        gt=0,
        le=3600,
        description="a worker's deliveries untouched this long (it died) are taken over by "
        "another worker: about how late a dead worker's posts arrive",
    )
    reclaim_heartbeat_s: float = Field(
        1.0,
        gt=0,
        description="how often a worker touches the deliveries it works on (so a slow batch "
        "is not taken over) and looks for a dead worker's; at most half of "
        "`FEEDLOOM_RECLAIM_IDLE_S`",
    )
    worker_id: int | None = Field(
        None,
        ge=0,
        le=1023,
        description="Snowflake worker bits; unset: leased automatically, unique per process",
    )
    secret_key: SecretStr | None = Field(
        None,
        description="signs media upload URLs and stream tickets; 32+ random characters, the "
        "same in every process. Required with PostgreSQL or Redis; the embedded default "
        "generates one into `data/secret_key` (0600) on first start",
    )
    media_base_url: str = Field(
        "/media", description="where items' image URLs point: this API, or a CDN or public bucket"
    )
    media_max_bytes: int = Field(10 * 1024 * 1024, ge=1024, description="largest image upload")

    timeline_length: int = Field(
        500, ge=10, le=10_000, description="post IDs a home timeline keeps (cache cap)"
    )
    author_timeline_length: int = Field(
        200, ge=10, le=10_000, description="post IDs an author timeline keeps (cache cap)"
    )
    inactive_after_days: int = Field(
        30, ge=1, description="timelines of inactive users expire (rebuilt on return)"
    )
    idempotency_ttl_hours: int = Field(
        24, ge=24, description="how long Idempotency-Keys are kept (at least 24)"
    )
    counter_flush_ms: int = Field(1_000, ge=10, description="like/comment counts batch window")
    counter_hot_per_flush: int = Field(
        50, ge=1, description="likes+comments on a post per flush window that make it hot"
    )
    counter_shards: int = Field(16, ge=1, le=256, description="sub-counters of a hot post")
    counter_cool_flushes: int = Field(60, ge=1, description="quiet windows before unsharding")

    post_max_chars: int = Field(500, ge=1, le=10_000, description="longest post text")
    media_per_post: int = Field(4, ge=0, le=10, description="images a post may carry")
    comment_max_chars: int = Field(1_000, ge=1, le=10_000, description="longest comment text")
    max_body_bytes: int = Field(
        64 * 1024, ge=1024, description="largest request body but an image upload; over: 413"
    )
    rate_limits: RateLimitSettings = RateLimitSettings()
    password_hash_time_cost: int = Field(3, ge=1, description="argon2 passes per password hash")
    password_hash_memory_kib: int = Field(
        65_536, ge=64, description="argon2 memory per password hash"
    )
    session_idle_expiry_s: int = Field(
        30 * 86_400, ge=60, description="a bearer token unused this long expires; use renews it"
    )
    username_reserved_days: int = Field(
        30, ge=0, description="a deleted account's username is taken this long"
    )
    password_hash_workers: int = Field(
        2, ge=1, le=64, description="argon2 hashes computed at once per process"
    )
    password_hash_queue: int = Field(
        64, ge=0, description="more hashes waiting; past that, sign-ins get 503"
    )

    fanout: FanoutSettings = FanoutSettings()
    feed: FeedSettings = FeedSettings()
    moderation: ModerationSettings = ModerationSettings()
    http: HttpSettings = HttpSettings()
    memo: MemoSettings = MemoSettings()
    media: MediaSettings = MediaSettings()
    lists: ListSettings = ListSettings()
    saved_feeds: SavedFeedSettings = SavedFeedSettings()
    generators: GeneratorSettings = GeneratorSettings()
    apps: AppSettings = AppSettings()
    webhooks: WebhookSettings = WebhookSettings()

    # Operations (docs/OPERATIONS.md): logs, and who may read /metrics and /readyz.
    log_format: Literal["text", "json"] = Field(
        "text", description="`json` for one JSON object per line; every line has the request ID"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", description="`DEBUG`, `INFO`, `WARNING` or `ERROR`"
    )
    metrics_token: SecretStr | None = Field(
        None,
        min_length=16,
        description="when set, `/metrics` wants `Authorization: Bearer <token>` (16+ characters)",
    )
    admin_port: int | None = Field(
        None,
        ge=1,
        le=65_535,
        description="serve `/metrics` and `/readyz` on this port only, not publicly "
        "(docs/OPERATIONS.md)",
    )
    admin_host: str = Field("127.0.0.1", description="the address the admin port listens on")

    @model_validator(mode="after")
    def _heartbeat_within_idle(self) -> Self:
        # Two beats fit in the idle time: one late beat must not cost a live batch.
        if self.reclaim_heartbeat_s * 2 > self.reclaim_idle_s:
            raise ValueError(
                "FEEDLOOM_RECLAIM_HEARTBEAT_S must be at most half of FEEDLOOM_RECLAIM_IDLE_S"
            )
        return self

    @field_validator("metrics_token")
    @classmethod
    def _no_placeholder_token(cls, token: SecretStr | None) -> SecretStr | None:
        if token is not None and placeholder(token.get_secret_value()):
            raise ValueError("still a placeholder: use random characters (openssl rand -hex 16)")
        return token

    @field_validator("database_url", "redis_url")
    @classmethod
    def _no_placeholder_password(cls, url: str | None) -> str | None:
        # Only the password: a host such as db.example.com is no placeholder.
        if url is not None and placeholder(urlsplit(url).password or ""):
            raise ValueError("its password is still a placeholder: put the real one")
        return url

    @field_validator("secret_key")
    @classmethod
    def _unguessable(cls, key: SecretStr | None) -> SecretStr | None:
        if key is None:
            return None
        value = key.get_secret_value()
        if placeholder(value):
            raise ValueError("still a placeholder: use random characters (openssl rand -hex 32)")
        if len(value) < SECRET_KEY_MIN_CHARS:
            raise ValueError(
                f"use {SECRET_KEY_MIN_CHARS}+ random characters (openssl rand -hex 32)"
            )
        return key

    @property
    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'feedloom.sqlite3').resolve()}"

    @property
    def is_embedded(self) -> bool:
        return self.redis_url is None

    @property
    def is_embedded_default(self) -> bool:
        """SQLite in data_dir and in-process caches: one machine, one data dir."""
        return self.is_embedded and self.effective_database_url.startswith("sqlite")


def placeholder(value: str) -> bool:
    return any(word in value.lower() for word in PLACEHOLDER_WORDS)


class SettingsError(ValueError):
    """A setting the environment gets wrong, said in one line that names the variable;
    `problems` has every such line (`feedloom doctor` lists them all, commands the first)."""

    def __init__(self, first: str, *more: str) -> None:
        super().__init__(first)
        self.problems = [first, *more]


def load_settings(data_dir: Path | None = None, demo: bool = False) -> Settings:
    """Settings as the `feedloom` commands read them: a `--data-dir` given on the command
    line wins over FEEDLOOM_DATA_DIR, and the demo gets demo-sized fan-out thresholds
    unless some FEEDLOOM_FANOUT* variable sets them.

    Raises SettingsError for an invalid value, and for a FEEDLOOM_* variable no setting
    reads: a typo (FEEDLOOM_FANOUT__PULL_ABOV) must not leave the default in force."""
    problems = unknown_variables(os.environ)
    overrides: dict[str, object] = {}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        problems += describe_invalid(error)
    if problems:
        raise SettingsError(*problems)
    if demo and not any(k.startswith("FEEDLOOM_FANOUT") for k in os.environ):
        settings = settings.model_copy(
            update={"fanout": settings.fanout.model_copy(update=DEMO_FANOUT)}
        )
    return settings


# -- saying what is wrong in the environment's own terms -----------------------------

PREFIX = "FEEDLOOM_"
# The test suite's own configuration (tests/servers.py), never read by Settings.
RESERVED_PREFIX = "FEEDLOOM_TEST_"
# Read by a command's option, not by Settings: `feedloom serve --port`.
OPTION_VARIABLES = {"FEEDLOOM_PORT"}
# Values never echoed back: secrets, and URLs that may carry a password.
UNECHOED = {
    "secret_key",
    "metrics_token",
    "database_url",
    "redis_url",
    "s3_access_key_id",
    "s3_secret_access_key",
}
# Variables of the server feedloom once left in charge, now read by no one: one left set
# would silently stop doing what its operator meant.
REPLACED = {"FORWARDED_ALLOW_IPS": "FEEDLOOM_HTTP__TRUSTED_PROXIES"}


def known_variables(model: type[BaseModel] = Settings, prefix: str = PREFIX) -> Iterator[str]:
    """Every variable Settings reads: leaves, and each nested group as a whole (JSON)."""
    for name, field in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        yield variable
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            yield from known_variables(kind, f"{variable}__")


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """One line per FEEDLOOM_* variable no setting reads, with the nearest known name."""
    known = set(known_variables()) | OPTION_VARIABLES
    lines = [
        f"{variable} is no longer read: set {REPLACED[variable]} instead"
        for variable in sorted(environ)
        if variable in REPLACED
    ]
    for variable in sorted(environ):
        upper = variable.upper()  # pydantic-settings matches names case-insensitively
        if not upper.startswith(PREFIX) or upper.startswith(RESERVED_PREFIX) or upper in known:
            continue
        near = difflib.get_close_matches(upper, known, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        lines.append(f"{variable} is not a feedloom setting{hint}")
    return lines


def describe_invalid(error: ValidationError) -> list[str]:
    """Every problem, each as `FEEDLOOM_FANOUT__PULL_ABOVE='abc': <why>`."""
    return [_describe(problem) for problem in error.errors()]


def _describe(problem: ErrorDetails) -> str:
    path = [str(part) for part in problem["loc"]]
    reason = problem["msg"].removeprefix("Value error, ")
    if not path:
        return reason  # a check across settings; its message names the variables
    variable = PREFIX + "__".join(part.upper() for part in path)
    shown = problem.get("input")
    if path[-1] in UNECHOED or not isinstance(shown, str) or len(shown) > 40:
        return f"{variable}: {reason}"
    return f"{variable}={shown!r}: {reason}"
