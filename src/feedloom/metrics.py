"""Prometheus metrics, one registry per app so tests and processes never collide.

These are the brief's dashboards: feed latency, fan-out lag and volume, timeline
rebuilds (a spike means a lost cache node), hydration misses, filtered items; per-route
HTTP traffic (recorded by `api/observability.py`) and the process's own CPU, memory,
file descriptors and garbage collection.
"""

from __future__ import annotations

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5)
HTTP_BUCKETS = (*LATENCY_BUCKETS, 5.0, 10.0)
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
AUTHOR_SIZES = ((100, "lt100"), (1_000, "lt1k"), (10_000, "lt10k"), (100_000, "lt100k"))


def author_size_bucket(followers: int) -> str:
    """A lag label by followers reached: few series, and big fan-outs apart."""
    for bound, name in AUTHOR_SIZES:
        if followers < bound:
            return name
    return "ge100k"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.fanout_timeline_writes = Counter(
            "feedloom_fanout_timeline_writes",
            "Post IDs inserted into followers' timelines",
            registry=r,
        )
        self.notification_events_pending = Gauge(
            "feedloom_notification_events_pending",
            "Notification events in the outbox not yet folded into their groups",
            registry=r,
        )
        self.notification_group_writes = Counter(
            "feedloom_notification_group_writes_total",
            "Notification groups written (one per group per consumed batch)",
            registry=r,
        )
        self.notification_lag = Histogram(
            "feedloom_notification_lag_seconds",
            "Notification event written until folded into its recipient's group",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.fanout_lag = Histogram(
            "feedloom_fanout_lag_seconds",
            "Post created until inserted into its followers' timelines",
            ["lane", "author_size"],
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.fanout_events = Counter(
            "feedloom_fanout_events", "Events handled by fan-out workers", ["kind"], registry=r
        )
        self.dead_letters = Counter(
            "feedloom_fanout_dead_letters",
            "Events set aside after failing fan-out on every try",
            ["lane"],
            registry=r,
        )
        self.lost_events_resent = Counter(
            "feedloom_outbox_resent",
            "Sent events re-sent because their stream was lost",
            registry=r,
        )
        self.oldest_pending = Gauge(
            "feedloom_oldest_pending_event_seconds",
            "Age of the oldest event not yet done: outbox (unsent, sent) and each lane",
            ["stage"],
            registry=r,
        )
        self.feed_latency = Histogram(
            "feedloom_feed_request_seconds",
            "Server-side feed latency",
            ["order"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.feed_empty = Counter(
            "feedloom_feed_empty", "Feed first pages with no items", registry=r
        )
        self.timeline_rebuilds = Counter(
            "feedloom_timeline_rebuilds", "Home timelines rebuilt from author timelines", registry=r
        )
        self.timeline_reads = Counter(
            "feedloom_timeline_reads", "Home timeline reads by cache result", ["result"], registry=r
        )
        self.hydration_misses = Counter(
            "feedloom_hydration_cache_misses",
            "Views not in cache at hydration",
            ["kind"],
            registry=r,
        )
        self.hydration_batch = Histogram(
            "feedloom_hydration_batch_size",
            "Posts hydrated per batch",
            buckets=(1, 5, 10, 20, 50, 100, 200, 500),
            registry=r,
        )
        self.filtered = Counter(
            "feedloom_feed_filtered_items",
            "Candidates dropped at read time",
            ["reason"],
            registry=r,
        )
        self.outbox_pending = Gauge(
            "feedloom_outbox_pending", "Outbox events not yet relayed", registry=r
        )
        self.queue_depth = Gauge(
            "feedloom_queue_depth", "Events waiting per fan-out lane", ["lane"], registry=r
        )
        self.cache_outages = Counter(
            "feedloom_cache_outages",
            "Cache calls answered in degraded mode (Redis unreachable)",
            ["port"],
            registry=r,
        )
        self.near_cache_resets = Counter(
            "feedloom_near_cache_resets",
            "Times this process' near cache of views and counts was emptied: its invalidation "
            "connection was made (connected), lost (lost, closed) or Redis was flushed",
            ["reason"],
            registry=r,
        )
        self.ranker_fallbacks = Counter(
            "feedloom_ranker_fallbacks",
            "Ranked feeds served chronologically",
            ["reason"],
            registry=r,
        )
        # Route templates, not raw paths, so a scan of random URLs stays one series.
        self.http_requests = Counter(
            "feedloom_http_requests",
            "HTTP requests by route template, method and status code",
            ["route", "method", "status"],
            registry=r,
        )
        self.http_latency = Histogram(
            "feedloom_http_request_duration_seconds",
            "HTTP request start until the last body byte is sent, by route template",
            ["route", "method"],
            buckets=HTTP_BUCKETS,
            registry=r,
        )
        self.moderation_held = Counter(
            "feedloom_moderation_held_posts",
            "Posts the content check held for moderation before fan-out",
            registry=r,
        )
        self.counter_hot_posts = Gauge(
            "feedloom_counter_hot_posts",
            "Posts this process counts as hot: batched into sharded sub-counters",
            registry=r,
        )
        self.count_drift = Histogram(
            "feedloom_count_drift",
            "Displayed minus true likes of each post reconciliation recounted",
            buckets=(-100, -10, -2, -1, 0, 1, 2, 10, 100, float("inf")),
            registry=r,
        )
        self.count_drift_posts = Gauge(
            "feedloom_count_drift_posts", "Posts whose counts had drifted, last run", registry=r
        )
        self.count_drift_abs = Gauge(
            "feedloom_count_drift_abs",
            "Sum of |displayed - true| likes and comments found by the last run",
            registry=r,
        )
        self.engagement_spikes = Gauge(
            "feedloom_engagement_spike_accounts",
            "Accounts whose followers or likes this hour are far above their last day",
            ["kind"],
            registry=r,
        )
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
