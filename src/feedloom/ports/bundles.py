"""The two bundles of ports one process works with, built once by the composition root.

Entry points (routes, the worker, the CLI) never pass a bundle into a use case:
bootstrap.py picks out the roles each use case needs. Tests and operator tools reach
into a bundle to inspect state.
"""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.model import Post, UserProfile
from feedloom.ports.accounts import (
    AccountAdmin,
    AccountEraser,
    AccountStore,
    ActivityLog,
    FanoutModes,
    KnownClients,
    PreferenceStore,
    ProfileEditor,
    ProfileStore,
    TokenStore,
)
from feedloom.ports.apps import AppStore, AppUsers
from feedloom.ports.caches import (
    AuthorTimelineStore,
    CounterStore,
    FeedSessionStore,
    NoticeBus,
    RateLimiter,
    RecordCache,
    TimelineStore,
    ViewCache,
)
from feedloom.ports.durable import (
    AffinityStore,
    BulkImporter,
    Engagement,
    FollowerLister,
    GraphReader,
    IdempotencyKeys,
    PeopleDirectory,
    PostArchive,
    PostEdits,
    PostSearch,
    PostStore,
    RelationStore,
    RepostStore,
    SuggestionSource,
    ThreadStore,
)
from feedloom.ports.fanout import DeadLetters, Outbox, WorkerLeases
from feedloom.ports.feeds import (
    GeneratorStore,
    ListStore,
    MutedWordStore,
    ReaderChoices,
    SavedFeedStore,
)
from feedloom.ports.markers import MarkerStore
from feedloom.ports.media import (
    DirectUploads,
    MediaSizeStore,
    MediaStore,
    MediaSweep,
    ObjectStore,
    SignedReads,
    UploadReceipts,
)
from feedloom.ports.moderation import ModerationStore
from feedloom.ports.notifications import NotificationStore
from feedloom.ports.oauth import OAuthStore
from feedloom.ports.sketches import HourlyTallies, TrendingStore, ViewerSketches
from feedloom.ports.tags import MentionLog, MentionResolver, TagStore
from feedloom.ports.webhooks import WebhookStore


@dataclass(frozen=True, slots=True)
class DurableStores:
    """The truth, one role per field (one SQL adapter object may fill several)."""

    accounts: AccountStore
    account_admin: AccountAdmin
    eraser: AccountEraser
    tokens: TokenStore
    known_clients: KnownClients  # where each account signed in from (sign-in limits)
    activity: ActivityLog
    profiles: ProfileStore
    profile_editor: ProfileEditor
    fanout_modes: FanoutModes
    preferences: PreferenceStore
    posts: PostStore
    archive: PostArchive
    media: MediaStore
    media_sweep: MediaSweep
    media_sizes: MediaSizeStore
    upload_receipts: UploadReceipts
    objects: ObjectStore  # image bytes
    idempotency: IdempotencyKeys
    relations: RelationStore
    graph: GraphReader
    followers: FollowerLister
    people: PeopleDirectory
    edits: PostEdits  # post edits and their history
    search: PostSearch  # full-text search over posts
    suggestions: SuggestionSource
    engagement: Engagement
    threads: ThreadStore
    reposts: RepostStore
    affinities: AffinityStore
    outbox: Outbox
    notifications: NotificationStore  # groups, read markers, type switches
    markers: MarkerStore  # the Mastodon API's read markers (home, notifications)
    dead_letters: DeadLetters
    worker_leases: WorkerLeases
    bulk: BulkImporter
    moderation: ModerationStore  # held posts, reports, suspicious accounts
    mention_resolver: MentionResolver  # usernames in a text -> accounts (write time)
    mentions: MentionLog  # who was mentioned where (notifications read it)
    tags: TagStore  # hashtags, their posts and who follows them
    oauth: OAuthStore  # the Mastodon-compatible API's apps, codes and app tokens
    # Lists, saved feeds, generators, muted words (docs/FEEDS.md)
    lists: ListStore
    saved_feeds: SavedFeedStore
    generators: GeneratorStore
    muted_words: MutedWordStore
    reader_choices: ReaderChoices  # muted words and exclusive lists, with the relations
    apps: AppStore  # apps, their keys and audit log (docs/INTEGRATION.md)
    app_users: AppUsers  # their users' external IDs, their batches
    webhooks: WebhookStore  # apps' webhooks and each event's delivery
    # An S3-compatible bucket (ports/media.py): clients PUT to it, readers get signed URLs.
    direct_uploads: DirectUploads | None = None
    signed_reads: SignedReads | None = None


@dataclass(frozen=True, slots=True)
class CachePorts:
    """Everything that may be lost and rebuilt: in-process or Redis."""

    timelines: TimelineStore
    author_timelines: AuthorTimelineStore
    tag_timelines: AuthorTimelineStore  # the same lists, keyed by tag: its recent public posts
    post_cache: ViewCache[Post]
    user_cache: ViewCache[UserProfile]
    counters: CounterStore
    sessions: FeedSessionStore
    rate_limiter: RateLimiter
    # Per-reader state a warm read needs without the durable store (lookups/reader_state.py)
    viewers: RecordCache  # relations and feed order, by user ID
    tokens: RecordCache  # bearer token digest -> user ID
    likes: RecordCache  # recently liked post IDs, by user ID
    notifications: RecordCache  # a recipient's newest notification groups, by user ID
    notices: NoticeBus  # new-post notices for open streams (read/home_stream.py)
    viewer_sketches: ViewerSketches  # distinct viewers per post (HyperLogLog)
    trending: TrendingStore  # engagement per trending window
    tag_trending: TrendingStore  # distinct authors per tag and window (the same sketches)
    hourly: HourlyTallies  # followers and likes per account per hour (spike signals)
