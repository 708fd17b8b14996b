"""Ports: the small interfaces the write and read paths need from the outside world.

`durable` (the truth: accounts, posts, graph, engagement, outbox; SQLite or
PostgreSQL), `caches` (timelines, views, counters, sessions, queue: may lose
everything, rebuilt from the durable store), `records` (the plain values they pass),
`bundles` (what the composition root builds once). Adapters implement the Protocols
structurally; nothing inherits.
"""

from feedloom.ports.bundles import CachePorts, DurableStores
from feedloom.ports.caches import (
    AuthorTimelineStore,
    CounterStore,
    EventQueue,
    FeedSessionStore,
    RateLimiter,
    RecordCache,
    TimelineStore,
    ViewCache,
)
from feedloom.ports.durable import (
    AccountStore,
    ActivityLog,
    AffinityStore,
    BulkImporter,
    Engagement,
    FanoutModes,
    FollowerLister,
    GraphReader,
    IdempotencyKeys,
    MediaStore,
    Outbox,
    PeopleDirectory,
    PostArchive,
    PostStore,
    PreferenceStore,
    ProfileEditor,
    ProfileStore,
    RelationStore,
    TokenStore,
)
from feedloom.ports.records import (
    Clock,
    Credentials,
    Delivery,
    Followee,
    Lane,
    NewUser,
    ProfileChanges,
    StoredResponse,
)

__all__ = [
    "AccountStore",
    "ActivityLog",
    "AffinityStore",
    "AuthorTimelineStore",
    "BulkImporter",
    "CachePorts",
    "Clock",
    "CounterStore",
    "Credentials",
    "Delivery",
    "DurableStores",
    "Engagement",
    "EventQueue",
    "FanoutModes",
    "FeedSessionStore",
    "Followee",
    "FollowerLister",
    "GraphReader",
    "IdempotencyKeys",
    "Lane",
    "MediaStore",
    "NewUser",
    "Outbox",
    "PeopleDirectory",
    "PostArchive",
    "PostStore",
    "PreferenceStore",
    "ProfileChanges",
    "ProfileEditor",
    "ProfileStore",
    "RateLimiter",
    "RecordCache",
    "RelationStore",
    "StoredResponse",
    "TimelineStore",
    "TokenStore",
    "ViewCache",
]
