"""Use cases wired to the ports each one uses, built once per process."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from math import ceil

from feedloom.bootstrap.apps import AppServices, build_apps, credentials
from feedloom.bootstrap.infrastructure import is_transient
from feedloom.bootstrap.runtime import Runtime
from feedloom.lookups.access import Access
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts, HotRules
from feedloom.lookups.likes import Likes
from feedloom.lookups.notices import Notices
from feedloom.lookups.notifications import NotificationRecords
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.signals import EngagementSignals
from feedloom.lookups.spikes import Spikes, SpikeTally
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.lookups.trending import TrendingTally
from feedloom.ports import CachePorts, Clock, DurableStores, EventQueue, OutboundHttp, OwnedMedia
from feedloom.ranking import rank
from feedloom.read.author_posts import AuthorPosts
from feedloom.read.candidates import Candidates
from feedloom.read.chronological import ChronologicalFeed
from feedloom.read.comments import Comments
from feedloom.read.context import Context
from feedloom.read.feed_order import FeedOrders
from feedloom.read.feeds import Feeds
from feedloom.read.generator_feed import GeneratorFeed
from feedloom.read.home_feed import HomeFeed
from feedloom.read.home_stream import HomeStream, StreamConfig
from feedloom.read.hydrate import Hydrator
from feedloom.read.new_posts import NewPosts
from feedloom.read.notifications import Notifications
from feedloom.read.people import People
from feedloom.read.ranked.candidates import Features
from feedloom.read.ranked.feature_log import FeatureLog
from feedloom.read.ranked.feed import RankedConfig, RankedFeed
from feedloom.read.ranked.out_of_network import OutOfNetwork, OutOfNetworkConfig
from feedloom.read.ranked.ranker import BudgetedRanker
from feedloom.read.search import SearchPosts, SearchTags
from feedloom.read.suggestions import Suggestions
from feedloom.read.tags import TagPages
from feedloom.read.trending import TrendingPosts, TrendingTags
from feedloom.read.viewer import Readers
from feedloom.settings import Settings
from feedloom.write.account_lifecycle import AccountLifecycle
from feedloom.write.accounts import AccountService
from feedloom.write.affinity import AffinityUpdates
from feedloom.write.content_check import CheckRules, DefaultContentCheck, ScreenPosts
from feedloom.write.counting import ReconcileCounts
from feedloom.write.credentials import Credentials
from feedloom.write.delete_post import DeletePost
from feedloom.write.dismiss_suggestion import DismissSuggestion
from feedloom.write.edit_post import EditPost
from feedloom.write.engagement import Engage, ReplyCounting
from feedloom.write.erase_account import EraseAccount
from feedloom.write.facets import ParseFacets
from feedloom.write.fan_out import FanOut
from feedloom.write.feed_upkeep import FeedUpkeep
from feedloom.write.generators import RegisterGenerator
from feedloom.write.import_graph import GraphImport
from feedloom.write.lists import ListLimits, Lists
from feedloom.write.markers import Markers
from feedloom.write.media import MediaConfig, MediaUploads
from feedloom.write.media_check import CheckUploads
from feedloom.write.media_cleanup import CleanUpMedia
from feedloom.write.media_jobs import MediaJobs
from feedloom.write.media_receipts import ReceivedMedia
from feedloom.write.moderation import Moderation, Reports
from feedloom.write.notifications import FoldNotifications, NotificationSettings
from feedloom.write.oauth import OAuth
from feedloom.write.passwords import Passwords
from feedloom.write.profile import EditProfile
from feedloom.write.publish_post import PostLimits, PublishPost
from feedloom.write.relations import Relations
from feedloom.write.relay_outbox import RelayOutbox
from feedloom.write.repost import Repost
from feedloom.write.saved_feeds import MutedWords, SavedFeeds
from feedloom.write.sessions import Authenticator, SessionPolicy, Sessions
from feedloom.write.sign_in import SignInLimits
from feedloom.write.stream_tickets import StreamTickets
from feedloom.write.tag_follows import FollowTags
from feedloom.write.tag_use import TagUse
from feedloom.write.throttle import Throttle, YoungAccounts
from feedloom.write.tickets import SignedTickets
from feedloom.write.worker import FanOutLedger, Worker, WorkerConfig

NEW_POSTS_CAP = 50  # GET /v1/feed/new counts up to this many


@dataclass(frozen=True, slots=True)
class Services:
    """What the entry points (routes, worker, CLI) call: each picks the one it needs."""

    accounts: AccountService
    oauth: OAuth  # the Mastodon-compatible API's apps and tokens
    account_lifecycle: AccountLifecycle
    edit_profile: EditProfile
    auth: Authenticator
    sessions: Sessions
    erase_account: EraseAccount
    throttle: Throttle
    publish: PublishPost
    delete_post: DeletePost
    edit_post: EditPost
    repost: Repost
    relations: Relations
    engage: Engage
    media: MediaUploads
    media_cleanup: CleanUpMedia
    affinity: AffinityUpdates
    home_feed: HomeFeed
    feed_orders: FeedOrders
    author_posts: AuthorPosts
    comments: Comments
    context: Context
    people: People
    search_posts: SearchPosts
    search_tags: SearchTags
    suggestions: Suggestions
    dismiss_suggestion: DismissSuggestion
    new_posts: NewPosts
    home_stream: HomeStream
    stream_tickets: StreamTickets
    rebuilder: TimelineRebuilder
    feed_upkeep: FeedUpkeep
    worker: Worker
    reconcile: ReconcileCounts
    graph_import: GraphImport
    reports: Reports
    moderation: Moderation
    trending: TrendingPosts
    lists: Lists
    saved_feeds: SavedFeeds
    muted_words: MutedWords
    register_generator: RegisterGenerator
    generator_feed: GeneratorFeed
    feeds: Feeds
    apps: AppServices
    credentials: Credentials  # the one bearer resolver (api/deps.py)
    tag_pages: TagPages
    follow_tags: FollowTags
    trending_tags: TrendingTags
    notifications: Notifications
    notification_settings: NotificationSettings
    markers: Markers


def build_services(
    settings: Settings,
    stores: DurableStores,
    caches: CachePorts,
    queue: EventQueue,
    runtime: Runtime,
    passwords: Passwords,
    feature_log: FeatureLog | None,
    secret_key: str,
    outbound: OutboundHttp,
) -> Services:
    clock, ids, metrics = runtime.clock, runtime.ids, runtime.metrics
    policy = settings.fanout.policy()
    views = Views(
        caches.post_cache,
        caches.user_cache,
        stores.posts,
        stores.profiles,
        metrics,
        settings.memo.post_authors,
    )
    states = ReaderStates(
        caches.viewers,
        stores.graph,
        stores.preferences,
        stores.reposts,
        stores.tags,
        settings.memo.decoded_readers,
        choices=stores.reader_choices,
    )
    likes = Likes(caches.likes, stores.engagement, clock)
    access = Access(views, states)
    people = People(stores.people, views, states, access)
    author_timelines = AuthorTimelines(
        caches.author_timelines, stores.archive, settings.author_timeline_length
    )
    tag_timelines = TagTimelines(caches.tag_timelines, stores.tags, settings.author_timeline_length)
    rebuilder = TimelineRebuilder(
        caches.timelines, author_timelines, metrics, settings.timeline_length
    )
    buffer = CounterBuffer(
        caches.counters,
        HotRules(
            settings.counter_hot_per_flush, settings.counter_shards, settings.counter_cool_flushes
        ),
        metrics.counter_hot_posts,
    )
    signals = EngagementSignals(
        TrendingTally(caches.trending, clock), SpikeTally(caches.hourly, clock), views
    )
    spikes = Spikes(caches.hourly, metrics, clock)
    counts = DisplayedCounts(caches.counters, stores.engagement, buffer)
    hydrator = Hydrator(views, counts, likes, caches.viewer_sketches, states, metrics)
    candidates = Candidates(
        caches.timelines,
        rebuilder,
        author_timelines,
        stores.archive,
        tag_timelines,
        metrics,
        clock,
        timedelta(seconds=settings.feed.own_posts_window_s),
        settings.feed.tag_posts_per_read,
    )
    affinity = AffinityUpdates(stores.affinities, settings.feed.affinity_half_life_days)
    replies = ReplyCounting(buffer, affinity, signals, clock)
    feed_orders = FeedOrders(stores.preferences, states, settings.feed.default_order)
    chronological = ChronologicalFeed(candidates, hydrator, metrics)
    ranked = _ranked_feed(
        settings, stores, caches, runtime, candidates, views, counts, likes, hydrator
    )
    ranked.feature_log = feature_log
    fan_out = FanOut(
        stores.posts,
        stores.profiles,
        stores.followers,
        caches.timelines,
        caches.author_timelines,
        author_timelines,
        tag_timelines,
        views,
        metrics,
        clock,
        {"default": settings.fanout.batch_size, "bulk": settings.fanout.bulk_batch_size},
    )
    notices = Notices(caches.notices)
    fan_out.notices = notices
    new_posts = NewPosts(Readers(states, policy), candidates, views, NEW_POSTS_CAP)
    reconcile = ReconcileCounts(caches.counters, stores.engagement, metrics)
    worker = Worker(
        RelayOutbox(
            stores.outbox,
            stores.profiles,
            queue,
            policy,
            clock,
            metrics,
            timedelta(seconds=settings.fanout.resend_lost_after_s),
        ),
        fan_out,
        queue,
        buffer,
        stores.idempotency,
        reconcile,
        clock,
        WorkerConfig(
            counter_flush_s=settings.counter_flush_ms / 1000,
            idempotency_ttl=timedelta(hours=settings.idempotency_ttl_hours),
            dead_letter_after=settings.fanout.dead_letter_after,
            is_transient=is_transient,
        ),
        FanOutLedger(stores.outbox, stores.dead_letters, metrics),
    )
    throttle = _throttle(settings, caches, clock)
    session_policy = SessionPolicy(
        timedelta(seconds=settings.session_idle_expiry_s), settings.memo.active_users
    )
    erase = EraseAccount(
        stores.eraser,
        counts,
        caches.tokens,
        views,
        states,
        caches.timelines,
        caches.author_timelines,
        stores.objects,
        clock,
    )
    upload_check = CheckUploads(
        stores.media_sizes, stores.direct_uploads, stores.objects, views, settings.media_max_bytes
    )
    worker.media_jobs = MediaJobs(
        stores.media_sizes, views, clock, stores.objects, upload_check, settings.media_base_url
    )
    check = DefaultContentCheck(caches.rate_limiter, check_rules(settings), clock)
    worker.screen = ScreenPosts(views, stores.moderation, check, metrics)
    worker.signals, worker.spikes = signals, spikes
    records = NotificationRecords(caches.notifications, stores.notifications)
    notifications = Notifications(records, stores.notifications, states, views, hydrator)
    settings_of_notifications = NotificationSettings(stores.notifications, records, notices, clock)
    worker.notifications = FoldNotifications(
        stores.notifications, records, notices, ids.next_id, clock, metrics
    )
    owned_media = _owned_media(settings, stores, clock)
    account_lifecycle = AccountLifecycle(
        stores.account_admin,
        stores.archive,
        caches.tokens,
        views,
        passwords,
        erase,
        stores.engagement,
        counts,
        clock,
    )
    accounts = AccountService(
        stores.accounts,
        stores.tokens,
        caches.tokens,
        passwords,
        throttle,
        _sign_in_limits(settings, stores, throttle, clock, secret_key),
        ids,
        clock,
        timedelta(days=settings.username_reserved_days),
    )
    home_feed = HomeFeed(
        feed_orders,
        Readers(states, policy),
        chronological,
        ranked,
        metrics,
        settings.feed.default_limit,
    )
    generator_feed = GeneratorFeed(
        stores.generators, outbound, Readers(states, policy), hydrator, metrics, clock
    )
    auth = Authenticator(
        stores.tokens, caches.tokens, stores.activity, caches.timelines, clock, session_policy
    )
    apps = build_apps(settings, stores, caches, runtime, views, states, erase, auth, throttle)
    post_limits = PostLimits(
        settings.post_max_chars, settings.media_per_post, settings.comment_max_chars
    )
    services = Services(
        accounts=accounts,
        oauth=OAuth(stores.oauth, stores.tokens, caches.tokens, accounts, ids, clock),
        account_lifecycle=account_lifecycle,
        edit_profile=EditProfile(stores.profile_editor, owned_media, views),
        auth=auth,
        sessions=Sessions(stores.tokens, caches.tokens, clock, session_policy),
        erase_account=erase,
        throttle=throttle,
        publish=PublishPost(
            stores.posts,
            owned_media,
            caches.author_timelines,
            views,
            caches.counters,
            access,
            replies,
            ParseFacets(stores.mention_resolver),
            TagUse(stores.tags, caches.tag_trending, clock),
            throttle,
            ids,
            clock,
            post_limits,
        ),
        delete_post=DeletePost(stores.posts, views, access, states, replies, tag_timelines, clock),
        edit_post=EditPost(
            stores.posts,
            stores.edits,
            owned_media,
            views,
            access,
            ParseFacets(stores.mention_resolver),
            throttle,
            clock,
            post_limits,
            tag_timelines,
        ),
        repost=Repost(
            stores.reposts,
            access,
            views,
            states,
            caches.author_timelines,
            throttle,
            ids,
            clock,
        ),
        relations=Relations(
            stores.relations,
            stores.graph,
            stores.profiles,
            stores.fanout_modes,
            views,
            states,
            caches.timelines,
            author_timelines,
            throttle,
            policy,
            clock,
        ),
        engage=Engage(
            stores.engagement,
            likes,
            access,
            buffer,
            affinity,
            signals,
            clock,
            throttle,
        ),
        media=MediaUploads(
            stores.media,
            stores.objects,
            ids,
            clock,
            MediaConfig(
                secret_key=secret_key,
                base_url=settings.media_base_url,
                max_bytes=settings.media_max_bytes,
                upload_ttl=timedelta(seconds=settings.media.upload_ttl_s),
                signed_get_ttl=timedelta(seconds=settings.media.signed_get_ttl_s),
            ),
            throttle,
            stores.direct_uploads,
            stores.signed_reads,
        ),
        media_cleanup=CleanUpMedia(stores.media_sweep, stores.objects, clock),
        affinity=affinity,
        home_feed=home_feed,
        feed_orders=feed_orders,
        author_posts=AuthorPosts(
            access,
            author_timelines,
            stores.archive,
            hydrator,
            metrics,
            settings.author_timeline_length,
        ),
        comments=Comments(access, stores.threads, views),
        context=Context(access, stores.threads, views, hydrator),
        people=people,
        search_posts=SearchPosts(stores.search, access, hydrator),
        search_tags=SearchTags(stores.search),
        suggestions=Suggestions(stores.suggestions, people, clock, settings.inactive_after_days),
        dismiss_suggestion=DismissSuggestion(stores.suggestions, views, clock),
        new_posts=new_posts,
        home_stream=HomeStream(
            Readers(states, policy), new_posts, notices, notifications, StreamConfig()
        ),
        stream_tickets=StreamTickets(secret_key, clock),
        rebuilder=rebuilder,
        feed_upkeep=FeedUpkeep(
            stores.account_admin,
            stores.graph,
            caches.timelines,
            rebuilder,
            views,
            settings.timeline_length,
        ),
        worker=worker,
        reconcile=reconcile,
        graph_import=GraphImport(
            stores.accounts,
            stores.profiles,
            stores.bulk,
            stores.graph,
            caches.timelines,
            rebuilder,
            states,
            ids,
            clock,
            policy,
        ),
        reports=Reports(stores.moderation, access, clock),
        moderation=Moderation(
            stores.moderation, stores.posts, views, account_lifecycle, spikes, clock
        ),
        trending=TrendingPosts(caches.trending, Readers(states, policy), views, hydrator, clock),
        lists=Lists(
            stores.lists,
            states,
            ids,
            clock,
            ListLimits(settings.lists.max_per_user, settings.lists.max_members),
        ),
        saved_feeds=SavedFeeds(
            stores.saved_feeds,
            stores.lists,
            stores.generators,
            access,
            ids,
            clock,
            settings.saved_feeds.max_per_user,
        ),
        muted_words=MutedWords(
            stores.muted_words, states, clock, settings.saved_feeds.max_muted_words
        ),
        register_generator=RegisterGenerator(stores.generators, outbound, ids, clock),
        generator_feed=generator_feed,
        feeds=Feeds(
            home_feed,
            candidates,
            stores.lists,
            stores.saved_feeds,
            generator_feed,
            author_timelines,
            stores.archive,
            stores.tags,
            settings.lists.max_members,
        ),
        apps=apps,
        credentials=credentials(apps, auth),
        tag_pages=TagPages(stores.tags, Readers(states, policy), hydrator, metrics),
        follow_tags=FollowTags(stores.tags, states, throttle, clock),
        trending_tags=TrendingTags(caches.tag_trending, stores.tags, clock),
        notifications=notifications,
        notification_settings=settings_of_notifications,
        markers=Markers(stores.markers, settings_of_notifications, clock),
    )
    services.relations.signals = signals
    services.relations.notifications = records
    return services


def check_rules(settings: Settings) -> CheckRules:
    rules = settings.moderation
    return CheckRules(
        repeat_limit=rules.repeat_limit,
        repeat_window_s=rules.repeat_window_s,
        repeat_min_chars=rules.repeat_min_chars,
        new_account_age=timedelta(days=rules.new_account_days),
        new_account_links=rules.new_account_links,
        links_window_s=rules.links_window_s,
        blocked_words=frozenset(word.lower() for word in rules.blocked_words),
        blocked_domains=frozenset(domain.lower() for domain in rules.blocked_domains),
    )


def _throttle(settings: Settings, caches: CachePorts, clock: Clock) -> Throttle:
    limits = settings.rate_limits
    young = YoungAccounts(timedelta(hours=limits.young_account_hours), limits.young_account_share)
    return Throttle(caches.rate_limiter, limits.rules(), young, clock)


def _sign_in_limits(
    settings: Settings, stores: DurableStores, throttle: Throttle, clock: Clock, secret_key: str
) -> SignInLimits:
    known_for = timedelta(days=settings.rate_limits.known_client_days)
    devices = SignedTickets(
        secret_key, "sign-in-device", clock, known_for, "this device cookie", "sign in again"
    )
    return SignInLimits(throttle, stores.known_clients, devices, clock, known_for)


def _ranked_feed(
    settings: Settings,
    stores: DurableStores,
    caches: CachePorts,
    runtime: Runtime,
    candidates: Candidates,
    views: Views,
    counts: DisplayedCounts,
    likes: Likes,
    hydrator: Hydrator,
) -> RankedFeed:
    feed = settings.feed
    ranker = BudgetedRanker(
        rank, feed.weights.weights(), feed.ranker_budget_ms / 1000, runtime.metrics
    )
    return RankedFeed(
        candidates,
        views,
        Features(counts, stores.engagement, stores.affinities, feed.affinity_half_life_days),
        ranker,
        caches.sessions,
        hydrator,
        runtime.metrics,
        runtime.clock,
        RankedConfig(
            rank_candidates=feed.rank_candidates,
            session_ttl_s=feed.session_ttl_s,
            pin_own=timedelta(seconds=feed.pin_own_s),
        ),
        feature_log=None,
        outside=OutOfNetwork(
            likes,
            caches.trending,
            views,
            OutOfNetworkConfig(
                share=feed.out_of_network_share,
                min_likers=feed.out_of_network_min_likers,
                followees=feed.out_of_network_followees,
                candidates=max(1, ceil(feed.rank_candidates * feed.out_of_network_share)),
            ),
        ),
    )


def _owned_media(settings: Settings, stores: DurableStores, clock: Clock) -> OwnedMedia:
    """What posts and avatars may attach: with a bucket, media whose upload is there
    are recorded as they are asked for (write/media_receipts.py)."""
    if stores.direct_uploads is None:
        return stores.media
    return ReceivedMedia(
        stores.media,
        stores.upload_receipts,
        stores.direct_uploads,
        clock,
        settings.media_max_bytes,
    )
